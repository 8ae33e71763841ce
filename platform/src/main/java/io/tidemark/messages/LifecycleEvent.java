package io.tidemark.messages;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The audit record of one attempt at an action and its outcome, value of {@code lifecycle-events}: every call the
 * object processor makes, every task it parks and every task an operator replays from the dead-letter topic.
 *
 * @param outcome  a gateway outcome ({@code DONE}, {@code NOOP_RESOLVED}, {@code SKIPPED_OBJECT_LOCK},
 *                 {@code RETRY_LATER}, {@code BLOCKED}), {@code RPC_ERROR}, {@code PARKED} or {@code REPLAYED}
 * @param attempt  which attempt this was (1 for the first call)
 * @param dueAt    the task's due instant, or {@code null} (a task without one, or an event written before they had it)
 */
public record LifecycleEvent(String actionId, String bucket, String objectPath, String versionId, String action,
                             String kind, String ruleId, String outcome, String reason, int attempt, Instant at,
                             Instant dueAt) {

    /** An event without a due instant, as every event written before they carried one. */
    public LifecycleEvent(String actionId, String bucket, String objectPath, String versionId, String action,
                          String kind, String ruleId, String outcome, String reason, int attempt, Instant at) {
        this(actionId, bucket, objectPath, versionId, action, kind, ruleId, outcome, reason, attempt, at, null);
    }

    /**
     * How long after its due instant this attempt was answered, on the object processor's clock; empty when either
     * is unknown. Never below zero: nothing is carried out before it is due.
     */
    public Optional<Duration> lateness() {
        if (dueAt == null || at == null) {
            return Optional.empty();
        }
        Duration late = Duration.between(dueAt, at);
        return Optional.of(late.isNegative() ? Duration.ZERO : late);
    }
}
