package io.tidemark.messages;

import java.time.Instant;

/**
 * The audit record of one attempt at an action and its outcome, value of {@code lifecycle-events}: every call the
 * object processor makes, every task it parks and every task an operator replays from the dead-letter topic.
 *
 * @param outcome  a gateway outcome ({@code DONE}, {@code NOOP_RESOLVED}, {@code SKIPPED_OBJECT_LOCK},
 *                 {@code RETRY_LATER}, {@code BLOCKED}), {@code RPC_ERROR}, {@code PARKED} or {@code REPLAYED}
 * @param attempt  which attempt this was (1 for the first call)
 */
public record LifecycleEvent(String actionId, String bucket, String objectPath, String versionId, String action,
                             String kind, String ruleId, String outcome, String reason, int attempt, Instant at) {
}
