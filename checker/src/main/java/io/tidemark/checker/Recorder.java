package io.tidemark.checker;

import io.tidemark.checker.model.RuleCatalog;
import io.tidemark.checker.model.Step;
import io.tidemark.checker.model.TraceEvent;
import io.tidemark.checker.model.TraceEvent.VersionView;
import io.tidemark.emulator.s3.LifecycleActionListener;
import io.tidemark.emulator.s3.ObjectVersionInfo;
import io.tidemark.emulator.s3.S3Exception;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.pb.S3LifecycleProto.ActionKind;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Carries out a history's S3 operations on the emulator's gateway and keeps the trace: each change with the state of
 * its key read while the store is still held, and every lifecycle action the gateway carried out, told by the
 * gateway itself in the same way. Holding the store for both puts the trace in the order the changes happened.
 */
final class Recorder implements LifecycleActionListener {

    private final S3Gateway s3;
    private final Clock clock;
    private final String prefix;
    private final Set<String> buckets;
    private final List<TraceEvent> trace = new ArrayList<>();
    private final Map<String, BucketVersioning> versioning = new HashMap<>();
    private final Map<String, String> rules = new HashMap<>();
    private final Map<String, Boolean> holds = new HashMap<>();
    private final Map<String, Instant> retentions = new HashMap<>();
    /** Open uploads per bucket/key, oldest first. */
    private final Map<String, List<String>> uploads = new HashMap<>();
    /** The version each {@link Step.Kind#HOLD_LIFTED} step held, by the step's index, until it is lifted. */
    private final Map<Integer, String> toLift = new HashMap<>();
    private int refused;

    /**
     * @param prefix  what the run's bucket names start with, before the history's own names
     * @param buckets the history's buckets: lifecycle actions elsewhere (another run on the cluster) are not its own
     */
    Recorder(S3Gateway s3, Clock clock, String prefix, Set<String> buckets) {
        this.s3 = s3;
        this.clock = clock;
        this.prefix = prefix;
        this.buckets = buckets.stream().map(b -> prefix + b).collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    void createBucket(String name, boolean objectLock, boolean versioned) {
        String bucket = prefix + name;
        synchronized (s3.store()) {
            s3.createBucket(bucket, objectLock);
            versioning.put(bucket, BucketVersioning.OFF);
            if (versioned) {
                s3.setVersioning(bucket, BucketVersioning.ENABLED);
                versioning.put(bucket, BucketVersioning.ENABLED);
            }
            record(new TraceEvent.BucketChanged(clock.instant(), bucket, versioning.get(bucket), null,
                    "created" + (objectLock ? " with object lock" : "") + (versioned ? ", versioning Enabled" : "")));
        }
    }

    /** Carries out one operation (not a fault, not a pause); an operation S3 refuses is counted and changes nothing. */
    void apply(Step step) {
        synchronized (s3.store()) {
            try {
                applyHeld(step);
            } catch (S3Exception e) {
                refused++;
            }
        }
    }

    private void applyHeld(Step step) {
        String b = prefix + step.bucket();
        String k = step.key();
        switch (step.kind()) {
            case PUT -> {
                s3.putObject(b, k, step.number(), tags(step.arg()), Map.of());
                keyChanged(b, step);
            }
            case DELETE -> {
                s3.deleteObject(b, k);
                keyChanged(b, step);
            }
            case DELETE_VERSION -> target(b, step, step.arg()).ifPresent(v -> {
                s3.deleteVersion(b, k, v.versionId());
                keyChanged(b, step);
            });
            case TAG -> {
                String[] parts = step.arg().split(":", 2);
                target(b, step, parts[0]).filter(v -> !v.deleteMarker()).ifPresent(v -> {
                    s3.putTags(b, k, v.versionId(), tags(parts[1]));
                    keyChanged(b, step);
                });
            }
            case HOLD, RELEASE -> target(b, step, step.arg()).filter(v -> !v.deleteMarker()).ifPresent(v -> {
                boolean on = step.kind() == Step.Kind.HOLD;
                s3.putLegalHold(b, k, v.versionId(), on);
                String id = b + "/" + k + "/" + v.versionId();
                holds.put(id, on);
                lockChanged(b, step, v.versionId(), id);
            });
            case RETAIN -> target(b, step, step.arg()).filter(v -> !v.deleteMarker()).ifPresent(v -> {
                // Whole seconds, as SeaweedFS keeps a retain-until date: the lock is what the gateway enforces.
                Instant until = Instant.ofEpochSecond(clock.instant().plusMillis(step.number()).getEpochSecond());
                s3.putRetention(b, k, v.versionId(), "COMPLIANCE", until);
                String id = b + "/" + k + "/" + v.versionId();
                retentions.merge(id, until, (a, c) -> a.isAfter(c) ? a : c);
                lockChanged(b, step, v.versionId(), id);
            });
            case VERSIONING -> {
                BucketVersioning state = BucketVersioning.parse(step.arg());
                s3.setVersioning(b, state);
                versioning.put(b, state);
                record(new TraceEvent.BucketChanged(clock.instant(), b, state, rules.get(b), step.toString()));
            }
            case RULES -> {
                s3.putLifecycle(b, step.arg());
                rules.put(b, step.arg());
                record(new TraceEvent.BucketChanged(clock.instant(), b, versioning.get(b), step.arg(),
                        step.toString()));
            }
            case RENAME_RULES -> {
                String current = rules.get(b);
                if (current == null) {
                    return;
                }
                String renamed = RuleCatalog.renamed(current, step.number());
                s3.putLifecycle(b, renamed);
                rules.put(b, renamed);
                record(new TraceEvent.BucketChanged(clock.instant(), b, versioning.get(b), renamed, step.toString()));
            }
            case HOLD_LIFTED -> target(b, step, step.arg()).filter(v -> !v.deleteMarker()).ifPresent(v -> {
                s3.putLegalHold(b, k, v.versionId(), true);
                String id = b + "/" + k + "/" + v.versionId();
                holds.put(id, true);
                toLift.put(step.index(), v.versionId());
                lockChanged(b, step, v.versionId(), id);
            });
            case REMOVE_RULES -> {
                s3.deleteLifecycle(b);
                rules.remove(b);
                record(new TraceEvent.BucketChanged(clock.instant(), b, versioning.get(b), null, step.toString()));
            }
            case UPLOAD -> {
                String uploadId = s3.createUpload(b, k);
                s3.uploadPart(b, uploadId, 1, step.number());
                uploads.computeIfAbsent(b + "/" + k, ignored -> new ArrayList<>()).add(uploadId);
                uploadChanged(b, uploadId, k, true, step.toString());
            }
            case COMPLETE_UPLOAD, ABORT_UPLOAD -> {
                List<String> open = uploads.getOrDefault(b + "/" + k, new ArrayList<>());
                if (open.isEmpty()) {
                    return;
                }
                String uploadId = open.get(0);
                Instant initiated = initiated(b, uploadId);
                if (step.kind() == Step.Kind.COMPLETE_UPLOAD) {
                    s3.completeUpload(b, uploadId);
                } else {
                    s3.abortUpload(b, uploadId);
                }
                open.remove(0);
                record(new TraceEvent.UploadChanged(clock.instant(), b, uploadId, k, initiated, false,
                        step.toString()));
                if (step.kind() == Step.Kind.COMPLETE_UPLOAD) {
                    keyChanged(b, step);
                }
            }
            default -> throw new IllegalArgumentException("not an operation: " + step);
        }
    }

    /** Lifts the hold a {@link Step.Kind#HOLD_LIFTED} step set, if its version is still there. */
    void lift(Step step) {
        synchronized (s3.store()) {
            String versionId = toLift.remove(step.index());
            String b = prefix + step.bucket();
            if (versionId == null || s3.versions(b, step.key()).stream().noneMatch(v -> versionId.equals(
                    v.versionId()))) {
                return;
            }
            try {
                s3.putLegalHold(b, step.key(), versionId, false);
            } catch (S3Exception e) {
                refused++;
                return;
            }
            String id = b + "/" + step.key() + "/" + versionId;
            holds.put(id, false);
            record(new TraceEvent.LockChanged(clock.instant(), b, step.key(), versionId, false, retentions.get(id),
                    "lifted: " + step));
        }
    }

    /** The version a step targets: the current one, one of the noncurrent ones (chosen by the step), the oldest. */
    private Optional<ObjectVersionInfo> target(String bucket, Step step, String which) {
        List<ObjectVersionInfo> all = s3.versions(bucket, step.key());
        if (all.isEmpty()) {
            return Optional.empty();
        }
        return switch (which) {
            case "current" -> all.stream().filter(ObjectVersionInfo::latest).findFirst();
            case "oldest" -> Optional.of(all.get(all.size() - 1));
            default -> {
                List<ObjectVersionInfo> noncurrent = all.stream().filter(v -> !v.latest()).toList();
                yield noncurrent.isEmpty() ? Optional.empty()
                        : Optional.of(noncurrent.get((int) (step.number() % noncurrent.size())));
            }
        };
    }

    private void keyChanged(String bucket, Step step) {
        record(new TraceEvent.KeyChanged(clock.instant(), bucket, step.key(), step.toString(),
                views(bucket, step.key())));
    }

    private void lockChanged(String bucket, Step step, String versionId, String id) {
        record(new TraceEvent.LockChanged(clock.instant(), bucket, step.key(), versionId,
                holds.getOrDefault(id, false), retentions.get(id), step.toString()));
    }

    /** Called by the gateway, which holds the store: the state read here is the one the action left. */
    @Override
    public void answered(LifecycleDeleteRequest request, LifecycleDeleteResponse response) {
        if (!buckets.contains(request.getBucket()) || response.getOutcome() != LifecycleDeleteOutcome.DONE) {
            return;
        }
        String bucket = request.getBucket();
        String path = request.getObjectPath();
        if (request.getActionKind() == ActionKind.ABORT_MPU) {
            String uploadId = path.substring(path.lastIndexOf('/') + 1);
            record(new TraceEvent.LifecycleActed(clock.instant(), bucket, path, "", request.getActionKind().name(),
                    List.of()));
            uploads.forEach((bucketAndKey, open) -> {
                if (bucketAndKey.startsWith(bucket + "/") && open.remove(uploadId)) {
                    record(new TraceEvent.UploadChanged(clock.instant(), bucket, uploadId,
                            bucketAndKey.substring(bucket.length() + 1), null, false, "aborted by lifecycle"));
                }
            });
            return;
        }
        record(new TraceEvent.LifecycleActed(clock.instant(), bucket, path, request.getVersionId(),
                request.getActionKind().name(), views(bucket, path)));
    }

    private void uploadChanged(String bucket, String uploadId, String key, boolean present, String cause) {
        record(new TraceEvent.UploadChanged(clock.instant(), bucket, uploadId, key, initiated(bucket, uploadId),
                present, cause));
    }

    /** When the gateway says an upload began: its directory's modification time, what the pipeline reads too. */
    private Instant initiated(String bucket, String uploadId) {
        return s3.store().lookup(s3.uploadsDirectory(bucket), uploadId).map(S3Entries::modTime).orElse(null);
    }

    void fault(String description) {
        synchronized (s3.store()) {
            record(new TraceEvent.Fault(clock.instant(), description));
        }
    }

    private List<VersionView> views(String bucket, String key) {
        List<VersionView> views = new ArrayList<>();
        for (ObjectVersionInfo v : s3.versions(bucket, key)) {
            views.add(new VersionView(v.versionId() == null ? "null" : v.versionId(), v.latest(), v.deleteMarker(),
                    S3Entries.modTime(v.entry()), v.entry().getAttributes().getFileSize(),
                    S3Entries.tags(v.entry())));
        }
        return views;
    }

    private void record(TraceEvent event) {
        synchronized (trace) {
            trace.add(event);
        }
    }

    List<TraceEvent> trace() {
        synchronized (trace) {
            return List.copyOf(trace);
        }
    }

    /** The run's bucket names, as the cluster knows them. */
    List<String> buckets() {
        return List.copyOf(buckets);
    }

    int refused() {
        return refused;
    }

    private static Map<String, String> tags(String spec) {
        if (spec.isEmpty()) {
            return Map.of();
        }
        String[] kv = spec.split("=", 2);
        return Map.of(kv[0], kv[1]);
    }
}
