package io.tidemark.replay;

import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.Evaluation;
import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleMatch;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.seaweed.ActionKind;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Decides what one meta-log or re-arm record does to the timers: arm (or re-time) a timer, cancel one, or
 * nothing. A pure function of the record, the bucket's current rules and the timer already armed, so every case
 * is tested without a broker.
 *
 * <p>Timers this version keeps: Expiration/Days of the current version (an unversioned object, a bucket's null
 * version, or the latest version in {@code .versions}, expired without a version ID so the gateway checks the
 * identity against what is latest when it acts), NoncurrentVersionExpiration/NoncurrentDays of a demoted version
 * (from the gateway's noncurrent-since stamp; rules with NewerNoncurrentVersions are left to the walker, which
 * knows ranks) and AbortIncompleteMultipartUpload. An overwrite, a re-tag or any
 * other change to the entry re-arms from the entry as it is now (its identity changed, so the old timer could only
 * ever NOOP); a delete, a delete marker or an upload's end cancels.
 */
final class TimerPlanner {

    /** What a record does to the timers. */
    sealed interface Change permits Arm, Cancel, Nothing {
    }

    record Arm(ReplayTimer timer) implements Change {
    }

    record Cancel(String timerId) implements Change {
    }

    /** @param reason why the record arms nothing, for the skipped-records metric */
    record Nothing(String reason) implements Change {
    }

    static String currentTimerId(String bucket, String logicalKey) {
        return bucket + "/" + logicalKey + "#" + ActionKind.EXPIRATION_DAYS;
    }

    static String noncurrentTimerId(String bucket, String logicalKey, String versionId) {
        return bucket + "/" + logicalKey + "#" + versionId + "#" + ActionKind.NONCURRENT_DAYS;
    }

    static String uploadTimerId(String bucket, String uploadPath) {
        return bucket + "/" + uploadPath + "#" + ActionKind.ABORT_MPU;
    }

    /**
     * @param rules    the bucket's compiled valid rules, empty when it has no (valid) lifecycle configuration
     * @param existing the timer currently armed under an id, if any
     */
    List<Change> plan(MetaLogRecord record, Optional<BucketRules> rules, Function<String, Optional<ReplayTimer>> existing,
                      Instant now) {
        if (record.getBucket().isEmpty() || record.getLogicalKey().isEmpty()) {
            return List.of(new Nothing("not-an-object"));
        }
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        boolean hasNew = record.getEvent().hasNewEntry();
        Entry entry = hasNew ? record.getEvent().getNewEntry() : record.getEvent().getOldEntry();
        EventKind kind = record.getKind();
        if (kind == EventKind.REARM) {
            return List.of(rearm(record, rules, entry, now));
        }
        if (kind == EventKind.UPLOAD_INITIATED || kind == EventKind.UPLOAD_ENDED) {
            String uploadPath = S3Layout.UPLOADS_DIRECTORY + "/" + entry.getName();
            if (kind == EventKind.UPLOAD_ENDED || rules.isEmpty()) {
                return List.of(new Cancel(uploadTimerId(bucket, uploadPath)));
            }
            return List.of(armUpload(record, rules.get(), uploadPath, entry, now));
        }
        boolean versionFile = record.getDirectory().endsWith(S3Layout.VERSIONS_SUFFIX)
                && entry.getName().startsWith(S3Layout.VERSION_FILE_PREFIX);
        String currentId = currentTimerId(bucket, key);
        switch (kind) {
            case OBJECT_DELETED, DELETE_MARKER_CREATED:
                return List.of(new Cancel(currentId));
            case VERSION_DELETED:
                return List.of(new Cancel(noncurrentTimerId(bucket, key, S3Entries.versionId(entry, versionFile))));
            case OBJECT_WRITTEN, TAGS_CHANGED, VERSION_CREATED:
                if (!hasNew || entry.getIsDirectory()) {
                    return List.of(new Nothing("no-entry"));
                }
                return List.of(armCurrent(record, rules, entry, versionFile, now));
            case OTHER:
                if (!hasNew || entry.getIsDirectory()) {
                    return List.of(new Nothing("other"));
                }
                String versionId = S3Entries.versionId(entry, versionFile);
                if (entry.getExtendedMap().containsKey(S3Layout.NONCURRENT_SINCE_NS)) {
                    // The gateway stamps a version when it is demoted: NoncurrentDays count from that stamp.
                    return List.of(armNoncurrent(record, rules, entry, versionId, S3Entries.noncurrentSince(entry),
                            now));
                }
                // Metadata changed (a lock): the armed identity is stale. Re-arm only the entry the timer was armed
                // on; an update to another version's file must not arm a current-version timer.
                Optional<ReplayTimer> armed = existing.apply(currentId);
                if (armed.isPresent() && armed.get().versionId().equals(versionId)) {
                    return List.of(armCurrent(record, rules, entry, versionFile, now));
                }
                return List.of(new Nothing("other"));
            default:
                return List.of(new Nothing(kind.name().toLowerCase(java.util.Locale.ROOT)));
        }
    }

    /**
     * A recovery walk's record: the entry as listed under the rules that are current now, in the role the walk
     * found it in (the walk knows which version is latest; a single event does not).
     */
    private Change rearm(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, Instant now) {
        if (!record.getEvent().hasNewEntry()) {
            return new Nothing("no-entry");
        }
        boolean versionFile = record.getDirectory().endsWith(S3Layout.VERSIONS_SUFFIX)
                && entry.getName().startsWith(S3Layout.VERSION_FILE_PREFIX);
        RearmRole role = record.getRearmRole();
        if (role == RearmRole.UPLOAD) {
            String uploadPath = S3Layout.UPLOADS_DIRECTORY + "/" + entry.getName();
            return rules.isEmpty() ? new Cancel(uploadTimerId(record.getBucket(), uploadPath))
                    : armUpload(record, rules.get(), uploadPath, entry, now);
        }
        if (entry.getIsDirectory()) {
            return new Nothing("no-entry");
        }
        if (role == RearmRole.NONCURRENT) {
            Optional<Instant> since = record.getNoncurrentSinceNs() > 0
                    ? Optional.of(EpochNanos.toInstant(record.getNoncurrentSinceNs()))
                    : S3Entries.noncurrentSince(entry);
            return armNoncurrent(record, rules, entry, S3Entries.versionId(entry, versionFile), since, now);
        }
        return armCurrent(record, rules, entry, versionFile, now);
    }

    private Change armCurrent(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, boolean versionFile,
                              Instant now) {
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        String currentId = currentTimerId(bucket, key);
        if (rules.isEmpty() || S3Entries.isDeleteMarker(entry)) {
            return new Cancel(currentId);
        }
        String versionId = S3Entries.versionId(entry, versionFile);
        Map<String, String> tags = S3Entries.tags(entry);
        Instant modTime = S3Entries.modTime(entry);
        ObjectVersion version = current(key, entry.getAttributes().getFileSize(), tags, modTime, versionId);
        Optional<RuleMatch> match = timerMatch(rules.get().rules().evaluate(version, rules.get().versioning(), now),
                ActionKind.EXPIRATION_DAYS);
        if (match.isEmpty()) {
            return new Cancel(currentId);
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(currentId, bucket, key, key, versionId, ActionKind.EXPIRATION_DAYS.name(),
                m.ruleId(), m.ruleHash().toHex(), m.dueAt(), ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)),
                entry.getAttributes().getFileSize(), tags, modTime, null, S3Entries.protectedUntil(entry), record.getTsNs()));
    }

    /**
     * A demoted version, timed from its noncurrent-since stamp. With NewerNoncurrentVersions in the rule the rank
     * that decides is unknown here, so no timer is armed (never early; the walker counts ranks).
     */
    private Change armNoncurrent(MetaLogRecord record, Optional<BucketRules> rules, Entry entry, String versionId,
                                 Optional<Instant> since, Instant now) {
        String bucket = record.getBucket();
        String key = record.getLogicalKey();
        String timerId = noncurrentTimerId(bucket, key, versionId);
        if (rules.isEmpty() || since.isEmpty() || versionId.isEmpty() || S3Entries.isDeleteMarker(entry)) {
            return new Cancel(timerId);
        }
        Map<String, String> tags = S3Entries.tags(entry);
        Instant modTime = S3Entries.modTime(entry);
        ObjectVersion version = noncurrent(key, entry.getAttributes().getFileSize(), tags, modTime, versionId,
                since.get());
        Optional<RuleMatch> match = timerMatch(rules.get().rules().evaluate(version, rules.get().versioning(), now),
                ActionKind.NONCURRENT_DAYS);
        if (match.isEmpty()) {
            return new Cancel(timerId);
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(timerId, bucket, key, key, versionId, ActionKind.NONCURRENT_DAYS.name(),
                m.ruleId(), m.ruleHash().toHex(), m.dueAt(), ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)),
                entry.getAttributes().getFileSize(), tags, modTime, since.get(), S3Entries.protectedUntil(entry),
                record.getTsNs()));
    }

    /** A noncurrent version as the rules see it: its rank among noncurrent versions is not known here. */
    static ObjectVersion noncurrent(String key, long size, Map<String, String> tags, Instant modTime, String versionId,
                                    Instant since) {
        return new ObjectVersion(key, size, tags, modTime, false, false, versionId, since, 2, null);
    }

    private Change armUpload(MetaLogRecord record, BucketRules rules, String uploadPath, Entry entry, Instant now) {
        String timerId = uploadTimerId(record.getBucket(), uploadPath);
        Instant initiated = S3Entries.modTime(entry);
        Optional<RuleMatch> match = timerMatch(rules.rules().evaluate(new MultipartUpload(record.getLogicalKey(),
                initiated), now), ActionKind.ABORT_MPU);
        if (match.isEmpty()) {
            return new Cancel(timerId);
        }
        RuleMatch m = match.get();
        return new Arm(new ReplayTimer(timerId, record.getBucket(), record.getLogicalKey(), uploadPath, "",
                ActionKind.ABORT_MPU.name(), m.ruleId(), m.ruleHash().toHex(), m.dueAt(), null, 0, Map.of(), initiated,
                null, null, record.getTsNs()));
    }

    /** The current-version object as the rules see it. */
    static ObjectVersion current(String key, long size, Map<String, String> tags, Instant modTime, String versionId) {
        return new ObjectVersion(key, size, tags, modTime, true, false, versionId.isEmpty() ? null : versionId, null, 1,
                null);
    }

    /** The match a timer of {@code kind} waits for: the one due now, else the next to come, if it is of that kind. */
    static Optional<RuleMatch> timerMatch(Evaluation evaluation, ActionKind kind) {
        Optional<RuleMatch> chosen = evaluation.due().isPresent() ? evaluation.due() : evaluation.upcoming();
        return chosen.filter(m -> m.kind() == kind);
    }

    /** A bucket's valid rules and versioning, compiled once per rule-set hash. */
    record BucketRules(RuleSet rules, BucketVersioning versioning) {
    }
}
