package io.tidemark.messages;

import java.time.Instant;

/** A task the object processor parked: the task, how it last ended, and its history. Value of the DLQ topic. */
public record DeadLetter(ObjectTask task, String outcome, String reason, int attempts, Instant firstFailure,
                         Instant lastFailure) {
}
