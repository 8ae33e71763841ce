package io.tidemark.messages;

import java.time.Instant;

/** The audit record of one dispatched action and its outcome, value of {@code lifecycle-events}. */
public record LifecycleEvent(String actionId, String bucket, String objectPath, String versionId, String action,
                             String kind, String ruleId, String outcome, String reason, Instant at) {
}
