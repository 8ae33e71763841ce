package io.tidemark.checker.model;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.Evaluation;
import io.tidemark.lifecycle.engine.LifecycleAction;
import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleMatch;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.checker.model.TraceEvent.VersionView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Judges a run from its trace with the rules engine alone: no Kafka, no timers, no listing code of the pipeline.
 * It sweeps the events in order, keeping each key's versions, each bucket's rules and versioning and each version's
 * locks; between two events the state is constant, so whether a version is due within that span is one evaluation
 * at its end. A version acted on by lifecycle while it was not due — nor at any instant of the {@code race} before
 * (a change that lands between the pipeline's last check and the gateway's) — is a wrongful delete. A version due and
 * unprotected for longer than {@code grace} without interruption, and still there at the end, is a lost expiration.
 * Multipart uploads are judged the same way, against AbortIncompleteMultipartUpload.
 */
public final class Oracle {

    private final RuleReader reader;
    private final Duration grace;
    private final Duration race;

    private final Map<String, Bucket> buckets = new HashMap<>();
    private final Map<String, List<VersionView>> keys = new LinkedHashMap<>();
    private final Map<String, Lock> locks = new HashMap<>();
    private final Map<String, Track> tracks = new HashMap<>();
    /** When each noncurrent version became noncurrent: its successor's time when it first was one. */
    private final Map<String, Instant> noncurrentSince = new HashMap<>();
    /** Open uploads, by their track's id. */
    private final Map<String, Upload> uploads = new HashMap<>();
    private final List<Finding> findings = new ArrayList<>();
    private Instant previous;
    private Duration latest = Duration.ZERO;
    private long actions;

    private record Bucket(BucketVersioning versioning, RuleSet rules, String xml) {
    }

    private record Lock(boolean legalHold, Instant retainUntil) {

        boolean protects(Instant t) {
            return legalHold || (retainUntil != null && retainUntil.isAfter(t));
        }
    }

    private record Upload(String bucket, String key, Instant initiated) {
    }

    /** One version's (or upload's) due status, as of the last event. */
    private static final class Track {
        Instant dueSince;
        Instant lastDueAt;
        String rule;
    }

    public Oracle(RuleReader reader, Duration grace, Duration race) {
        this.reader = reader;
        this.grace = grace;
        this.race = race;
    }

    /** What the oracle concluded. */
    public record Verdict(List<Finding> findings, long actions, Duration latestAction) {
    }

    /** Judges the events of a run (in order) that ended at {@code end}. */
    public Verdict judge(List<TraceEvent> events, Instant end) {
        for (TraceEvent event : events) {
            advance(event.at());
            apply(event);
        }
        advance(end);
        tracks.forEach((id, track) -> {
            if (track.dueSince != null && Duration.between(track.dueSince, end).compareTo(grace) > 0) {
                String[] parts = id.split("\u0000", -1);
                findings.add(new Finding(Finding.Kind.LOST_EXPIRATION, parts[0], parts[1], parts[2], track.rule,
                        track.dueSince.plus(grace), "due under " + track.rule + " since " + track.dueSince
                        + " and unprotected, still there " + Duration.between(track.dueSince, end).toMillis()
                        + " ms later (grace " + grace.toMillis() + " ms)"));
            }
        });
        return new Verdict(List.copyOf(findings), actions, latest);
    }

    private void apply(TraceEvent event) {
        if (event instanceof TraceEvent.BucketChanged b) {
            buckets.put(b.bucket(), new Bucket(b.versioning(), compile(b), b.rules()));
        } else if (event instanceof TraceEvent.LockChanged l) {
            locks.put(id(l.bucket(), l.key(), l.versionId()), new Lock(l.legalHold(), l.retainUntil()));
        } else if (event instanceof TraceEvent.KeyChanged k) {
            replace(k.bucket(), k.key(), k.versions());
        } else if (event instanceof TraceEvent.LifecycleActed a) {
            actions++;
            judgeAction(a);
            if (!a.kind().equals(ActionKind.ABORT_MPU.name())) {
                replace(a.bucket(), a.key(), a.versions());
            }
        } else if (event instanceof TraceEvent.UploadChanged u) {
            String id = uploadId(u.bucket(), u.uploadId());
            if (u.present()) {
                uploads.put(id, new Upload(u.bucket(), u.key(), u.initiated()));
            } else {
                uploads.remove(id);
                tracks.remove(id);
            }
        }
    }

    private RuleSet compile(TraceEvent.BucketChanged change) {
        if (change.rules() == null) {
            return null;
        }
        try {
            return reader.read(change.rules());
        } catch (LifecycleConfigException e) {
            // The gateway took it, so the pipeline reads it too; an oracle that cannot is a checker fault.
            throw new IllegalStateException("the oracle cannot read a configuration the gateway took: " + e, e);
        }
    }

    private void judgeAction(TraceEvent.LifecycleActed acted) {
        if (acted.kind().equals(ActionKind.ABORT_MPU.name())) {
            String uploadId = acted.key().substring(acted.key().lastIndexOf('/') + 1);
            judge(acted, tracks.get(uploadId(acted.bucket(), uploadId)), "", uploads.containsKey(uploadId(
                    acted.bucket(), uploadId)));
            return;
        }
        List<VersionView> before = keys.getOrDefault(key(acted.bucket(), acted.key()), List.of());
        Optional<VersionView> target = acted.versionId().isEmpty()
                ? before.stream().filter(VersionView::latest).findFirst()
                : before.stream().filter(v -> v.versionId().equals(acted.versionId())).findFirst();
        String versionId = target.map(VersionView::versionId).orElse(acted.versionId());
        judge(acted, tracks.get(id(acted.bucket(), acted.key(), versionId)), versionId, target.isPresent());
    }

    private void judge(TraceEvent.LifecycleActed acted, Track track, String versionId, boolean known) {
        boolean allowed = track != null && track.lastDueAt != null
                && Duration.between(track.lastDueAt, acted.at()).compareTo(race) <= 0;
        if (!allowed) {
            findings.add(new Finding(Finding.Kind.WRONGFUL_DELETE, acted.bucket(), acted.key(), versionId,
                    track == null ? null : track.rule, acted.at(), acted.kind() + " carried out while "
                    + (!known ? "the oracle knows no such version or upload" : "no rule made it due (last due: "
                    + (track == null || track.lastDueAt == null ? "never" : track.lastDueAt) + ")")));
        } else if (track.dueSince != null) {
            Duration late = Duration.between(track.dueSince, acted.at());
            if (late.compareTo(latest) > 0) {
                latest = late;
            }
        }
    }

    private void replace(String bucket, String key, List<VersionView> versions) {
        List<VersionView> old = keys.put(key(bucket, key), versions);
        if (old != null) {
            for (VersionView gone : old) {
                if (versions.stream().noneMatch(v -> v.versionId().equals(gone.versionId()))) {
                    tracks.remove(id(bucket, key, gone.versionId()));
                    noncurrentSince.remove(id(bucket, key, gone.versionId()));
                }
            }
        }
        // A version becomes noncurrent when its successor is written, and stays noncurrent from that instant while it
        // is not current again, whatever happens to that successor later (a null version replaced in a Suspended
        // bucket): S3 counts noncurrent days from when the version became noncurrent.
        // What makes a version noncurrent is the next version written after it (a put or a delete marker): the
        // nearest newer by time, whatever place the gateway's list gives the null version.
        Optional<VersionView> latest = versions.stream().filter(VersionView::latest).findFirst();
        for (VersionView v : versions) {
            String id = id(bucket, key, v.versionId());
            if (v.latest()) {
                noncurrentSince.remove(id);
                continue;
            }
            Optional<Instant> next = versions.stream().map(VersionView::modTime).filter(m -> m.isAfter(v.modTime()))
                    .min(Instant::compareTo).or(() -> latest.map(VersionView::modTime));
            next.ifPresent(since -> noncurrentSince.putIfAbsent(id, since));
        }
    }

    /** Brings every version's due status to {@code t}: the state has not changed since the previous event. */
    private void advance(Instant t) {
        Instant from = previous == null ? t : previous;
        previous = t;
        keys.forEach((bucketAndKey, versions) -> {
            int split = bucketAndKey.indexOf('\u0000');
            String bucketName = bucketAndKey.substring(0, split);
            String key = bucketAndKey.substring(split + 1);
            Bucket bucket = buckets.get(bucketName);
            List<ObjectVersion> states = states(key, versions, bucket == null ? BucketVersioning.OFF
                    : bucket.versioning(), versionId -> noncurrentSince.get(id(bucketName, key, versionId)));
            for (int i = 0; i < versions.size(); i++) {
                String id = id(bucketName, key, versions.get(i).versionId());
                Track track = tracks.computeIfAbsent(id, ignored -> new Track());
                Optional<RuleMatch> due = bucket == null || bucket.rules() == null || unremovable(versions.get(i))
                        || unreachableWhileSuspended(bucket, versions.get(i))
                        ? Optional.empty() : due(bucket, states.get(i), locks.get(id), t);
                Lock lock = locks.get(id);
                observe(track, due, from, t, due.isPresent() && lock != null ? lock.retainUntil() : null);
            }
        });
        uploads.forEach((id, upload) -> {
            Bucket bucket = buckets.get(upload.bucket());
            Track track = tracks.computeIfAbsent(id, ignored -> new Track());
            Optional<RuleMatch> due = bucket == null || bucket.rules() == null || upload.initiated() == null
                    ? Optional.empty() : bucket.rules().evaluate(new MultipartUpload(upload.key(), upload.initiated()),
                    t).due().filter(m -> m.action() == LifecycleAction.ABORT_MPU);
            observe(track, due, from, t, null);
        });
    }

    /**
     * Takes note of whether a version or upload is due at {@code t}, its state unchanged since {@code from}: due since
     * the later of {@code from}, its due instant and the end of its retention, if it was not due already.
     */
    private static void observe(Track track, Optional<RuleMatch> due, Instant from, Instant t, Instant retainUntil) {
        if (due.isEmpty()) {
            track.dueSince = null;
            return;
        }
        track.lastDueAt = t;
        track.rule = due.get().ruleId() + " (" + due.get().kind() + ")";
        if (track.dueSince == null) {
            Instant since = max(from, due.get().dueAt());
            track.dueSince = retainUntil == null ? since : max(since, retainUntil);
        }
    }

    /**
     * A "null" delete marker (a delete in a Suspended bucket) can be removed by no request: upstream's gateway looks
     * for version "null" at the bare path only, and the marker lives in the {@code .versions} directory. The pipeline
     * counts such markers and sends nothing (docs/filer-emulator.md); expecting their removal would report upstream's
     * limit as a lost expiration.
     */
    private static boolean unremovable(VersionView version) {
        return version.deleteMarker() && version.versionId().equals("null");
    }

    /**
     * Upstream's LifecycleDelete, asked to expire the current version without a version ID, fetches the bare object
     * (the null version) of a bucket that is not Enabled: a current version written while it was Enabled, living in
     * {@code .versions}, answers NOT_FOUND while versioning is Suspended (naming it instead would put the marker on
     * whatever is latest when the gateway acts). Expecting its expiration would report upstream's limit as a lost one.
     */
    private static boolean unreachableWhileSuspended(Bucket bucket, VersionView version) {
        return bucket.versioning() == BucketVersioning.SUSPENDED && version.latest() && !version.deleteMarker()
                && !version.versionId().equals("null");
    }

    private Optional<RuleMatch> due(Bucket bucket, ObjectVersion version, Lock lock, Instant t) {
        Evaluation evaluation = bucket.rules().evaluate(version, bucket.versioning(), t);
        Optional<RuleMatch> due = evaluation.due();
        if (due.isEmpty() || due.get().action() == LifecycleAction.NONE) {
            return Optional.empty();
        }
        // A lock keeps a version from being removed, and from a delete marker placed over it: unlike AWS, SeaweedFS's
        // LifecycleDelete checks the lock of the latest version before it creates the marker.
        if (version.versionId() != null && lock != null && lock.protects(t)) {
            return Optional.empty();
        }
        return due;
    }

    /**
     * The engine's view of each version of a key, from the gateway's newest-first list.
     *
     * @param becameNoncurrent when a noncurrent version became so, or null for its successor's time
     */
    static List<ObjectVersion> states(String key, List<VersionView> versions, BucketVersioning versioning,
                                      java.util.function.Function<String, Instant> becameNoncurrent) {
        List<ObjectVersion> states = new ArrayList<>();
        if (!versioning.versioned() && versions.size() == 1 && versions.get(0).versionId().equals("null")) {
            VersionView only = versions.get(0);
            states.add(ObjectVersion.plain(key, only.size(), only.tags(), only.modTime()));
            return states;
        }
        int rank = 0;
        for (int i = 0; i < versions.size(); i++) {
            VersionView v = versions.get(i);
            if (v.latest()) {
                states.add(new ObjectVersion(key, v.size(), v.tags(), v.modTime(), true, v.deleteMarker(),
                        v.versionId(), null, versions.size(), null));
            } else {
                Instant known = becameNoncurrent.apply(v.versionId());
                Instant successor = known != null ? known : i == 0 ? null : versions.get(i - 1).modTime();
                states.add(new ObjectVersion(key, v.size(), v.tags(), v.modTime(), false, v.deleteMarker(),
                        v.versionId(), successor, versions.size(), rank++));
            }
        }
        return states;
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    private static String key(String bucket, String key) {
        return bucket + "\u0000" + key;
    }

    private static String uploadId(String bucket, String uploadId) {
        return id(bucket, ".uploads/" + uploadId, "");
    }

    private static String id(String bucket, String key, String versionId) {
        return bucket + "\u0000" + key + "\u0000" + versionId;
    }
}
