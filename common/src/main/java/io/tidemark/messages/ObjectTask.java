package io.tidemark.messages;

import java.time.Instant;

/** One lifecycle action to carry out on one object version or upload, the value of {@code object-tasks}. */
public record ObjectTask(String actionId, String action, String kind, Target target, Details details) {

    public record Target(String bucket, String objectPath, String versionId) {
    }

    /** The identity the decision was made on; the gateway deletes only if the entry still has it. */
    public record ExpectedIdentity(long mtimeNs, long size, String headFid, String extendedHash) {
    }

    /**
     * @param origin what produced the task: {@code replay} or {@code walker}
     */
    public record Details(ExpectedIdentity expectedIdentity, String ruleId, String ruleHash, Instant dueAt,
                          String origin, String scanId) {
    }
}
