package io.tidemark.messages;

import io.tidemark.seaweed.EntryIdentity;
import java.time.Instant;
import java.util.HexFormat;

/**
 * One lifecycle action to carry out on one object version or upload, the value of {@code object-tasks}.
 *
 * @param actionId a deterministic id of the decision (the same timer or listing yields the same id), so a task
 *                 produced twice after a crash is recognisable downstream
 * @param action   what the gateway does, for people: {@code expire}, {@code delete-version}, {@code abort-upload}
 * @param kind     the {@link io.tidemark.lifecycle.engine.ActionKind} name, such as {@code EXPIRATION_DAYS}
 */
public record ObjectTask(String actionId, String action, String kind, Target target, Details details) {

    /** {@link Details#origin}: a task fired by a replay-streams timer. */
    public static final String FROM_TIMER = "replay";
    /** {@link Details#origin}: a task a bucket processor's walk found due. */
    public static final String FROM_WALK = "walker";
    /** {@link Details#origin}: a parked task an operator replayed from the dead-letter topic. */
    public static final String FROM_DLQ_REPLAY = "dlq-replay";

    /**
     * @param objectPath the bucket-relative path: the object key, or {@code .uploads/<id>} for an upload
     * @param versionId  the version to act on; empty for the current version of an object (expiration), which the
     *                   gateway resolves itself so that the identity is checked against what is latest now
     */
    public record Target(String bucket, String objectPath, String versionId) {
    }

    /**
     * The identity the decision was made on; the gateway deletes only if the entry still has it.
     *
     * @param extendedHash lower-case hex of the extended-attribute hash, empty when the entry has none
     */
    public record ExpectedIdentity(long mtimeNs, long size, String headFid, String extendedHash) {

        public static ExpectedIdentity of(EntryIdentity identity) {
            return new ExpectedIdentity(identity.mtimeNs(), identity.size(), identity.headFid(),
                    HexFormat.of().formatHex(identity.extendedHash()));
        }
    }

    /**
     * @param ruleHash        lower-case hex of the rule's 8-byte hash
     * @param origin          what produced the task: {@code replay}, {@code walker} or {@code dlq-replay}
     * @param modTime         the entry's modification time (an upload's initiation) the decision was made on; the
     *                        object processor recomputes the due instant from it under the rule as it is now. Null
     *                        in tasks written before it existed: the identity's mtime stands in
     * @param noncurrentSince when the version became noncurrent, for a noncurrent-version action; else null
     */
    public record Details(ExpectedIdentity expectedIdentity, String ruleId, String ruleHash, Instant dueAt,
                          String origin, String scanId, Instant modTime, Instant noncurrentSince) {

        public Details(ExpectedIdentity expectedIdentity, String ruleId, String ruleHash, Instant dueAt, String origin,
                       String scanId) {
            this(expectedIdentity, ruleId, ruleHash, dueAt, origin, scanId, null, null);
        }

        /** The same decision, produced again by {@code origin}. */
        public Details from(String newOrigin) {
            return new Details(expectedIdentity, ruleId, ruleHash, dueAt, newOrigin, scanId, modTime, noncurrentSince);
        }
    }
}
