package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.engine.Evaluation;
import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleMatch;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.topics.ShardPartitioner;
import java.time.Instant;
import java.util.Optional;

/**
 * Turns the rules' verdict on one listed entry into what the walk sends: an object task for a match due now that
 * this walk is responsible for, or — in a recovery walk — a re-arm record for a timer-driven match still to come.
 *
 * <p>A steady walk answers for the kinds no timer covers (a date, a rank, an expired delete marker) and for
 * noncurrent expiration that replay-streams could not time (the version carries no demotion stamp, or the rule
 * keeps a number of newer versions, which needs the rank only a listing knows). A recovery walk answers for every
 * kind. An entry under object lock gets no task: the gateway would refuse it; a recovery walk re-arms it instead,
 * so its timer waits for the lock to end.
 */
final class WalkDecisions implements WalkVisitor {

    private final String bucket;
    private final BucketTask.Details walk;
    private final WalkRules rules;
    private final ShardFunction shards;
    private final Instant now;
    private final PageOutput out;

    WalkDecisions(String bucket, BucketTask.Details walk, WalkRules rules, ShardFunction shards, Instant now,
                  PageOutput out) {
        this.bucket = bucket;
        this.walk = walk;
        this.rules = rules;
        this.shards = shards;
        this.now = now;
        this.out = out;
    }

    private boolean recovery() {
        return walk.mode() == BucketTask.Mode.recovery;
    }

    /**
     * @param directory       the entry's directory (full filer path)
     * @param role            what the entry is to its key: current or noncurrent
     * @param replayTimable   the version as replay-streams sees it from a single event (no rank, its own stamp),
     *                        for noncurrent versions; empty otherwise
     */
    @Override
    public void version(String directory, Entry entry, ObjectVersion version, RearmRole role,
                        Optional<ObjectVersion> replayTimable) {
        Evaluation verdict = rules.rules().evaluate(version, rules.versioning(), now);
        Optional<RuleMatch> due = verdict.due();
        boolean sent = false;
        if (due.isPresent() && wanted(due.get(), replayTimable)) {
            if (S3Entries.locked(entry, now)) {
                out.locked++;
            } else {
                task(due.get(), version.key(), version.key(), targetVersion(due.get().kind(), version),
                        ObjectTask.ExpectedIdentity.of(EntryIdentity.of(entry)), version.modTime(),
                        version.noncurrentSince().orElse(null));
                sent = true;
            }
        }
        if (recovery() && !sent && timerAhead(verdict)) {
            long since = version.noncurrentSince().map(EpochNanos::of).orElse(0L);
            rearm(directory, entry, version.key(), role, since);
        }
    }

    @Override
    public void upload(String directory, Entry entry, String destinationKey) {
        MultipartUpload upload = new MultipartUpload(destinationKey, S3Entries.modTime(entry));
        Evaluation verdict = rules.rules().evaluate(upload, now);
        String uploadPath = S3Layout.UPLOADS_DIRECTORY + "/" + entry.getName();
        if (verdict.due().isPresent() && recovery()) {
            // Uploads have no walker kind: a steady walk leaves them to their timers.
            task(verdict.due().get(), uploadPath, destinationKey, "", null, upload.initiated(), null);
        } else if (recovery() && timerAhead(verdict)) {
            rearm(directory, entry, destinationKey, RearmRole.UPLOAD, 0);
        }
    }

    private boolean wanted(RuleMatch match, Optional<ObjectVersion> replayTimable) {
        if (recovery() || match.kind().walked()) {
            return true;
        }
        if (match.kind() != ActionKind.NONCURRENT_DAYS || replayTimable.isEmpty()) {
            return false;
        }
        // A timer covers this version only if the version as one event shows it matches as well.
        Optional<RuleMatch> timed = rules.rules().evaluate(replayTimable.get(), rules.versioning(), now).due();
        return timed.isEmpty() || timed.get().kind() != ActionKind.NONCURRENT_DAYS;
    }

    private static boolean timerAhead(Evaluation verdict) {
        return verdict.due().map(m -> m.kind().timerDriven()).orElse(false)
                || verdict.upcoming().map(m -> m.kind().timerDriven()).orElse(false);
    }

    private static String targetVersion(ActionKind kind, ObjectVersion version) {
        if (kind == ActionKind.EXPIRATION_DAYS || kind == ActionKind.EXPIRATION_DATE) {
            // The current version is expired without a version ID: the gateway checks the identity against what
            // is latest when it acts.
            return "";
        }
        return version.versionId() == null ? "" : version.versionId();
    }

    private void task(RuleMatch match, String objectPath, String logicalKey, String versionId,
                      ObjectTask.ExpectedIdentity identity, Instant modTime, Instant noncurrentSince) {
        ObjectTask.Target target = new ObjectTask.Target(bucket, objectPath, versionId);
        String ruleHash = match.ruleHash().toHex();
        String kind = match.kind().name();
        ObjectTask task = new ObjectTask(WalkActionIds.of(kind, target, identity, ruleHash), action(match.kind()),
                kind, target, new ObjectTask.Details(identity, match.ruleId(), ruleHash, match.dueAt(),
                ObjectTask.FROM_WALK, walk.scanId(), modTime, noncurrentSince));
        out.task(shards.shardOf(bucket, logicalKey), ShardPartitioner.key(bucket, logicalKey), task);
    }

    private static String action(ActionKind kind) {
        return switch (kind) {
            case EXPIRATION_DAYS, EXPIRATION_DATE -> "expire";
            case ABORT_MPU -> "abort-upload";
            default -> "delete-version";
        };
    }

    private void rearm(String directory, Entry entry, String logicalKey, RearmRole role, long noncurrentSinceNs) {
        int shard = shards.shardOf(bucket, logicalKey);
        MetaLogRecord record = MetaLogRecord.newBuilder()
                .setTsNs(EpochNanos.of(now))
                .setDirectory(directory)
                .setEvent(EventNotification.newBuilder().setNewEntry(slim(entry)))
                .setBucket(bucket)
                .setLogicalKey(logicalKey)
                .setKind(EventKind.REARM)
                .setShard(shard)
                .setRearmRole(role)
                .setNoncurrentSinceNs(noncurrentSinceNs)
                .build();
        out.rearm(shard, ShardPartitioner.key(bucket, logicalKey), record);
    }

    /** The entry with its chunk list cut to the first chunk, which is all the identity needs (as in meta-log). */
    static Entry slim(Entry entry) {
        if (entry.getChunksCount() <= 1) {
            return entry;
        }
        return entry.toBuilder().clearChunks().addChunks(entry.getChunks(0)).build();
    }
}
