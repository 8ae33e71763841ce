package io.tidemark.messages;

import java.time.Instant;

/**
 * A task the object processor parked instead of completing: the task, how it last ended and its history. Value of
 * {@code object-tasks.dlq}. Nothing is dropped: a record that could not even be read as a task is parked too,
 * with {@code task} null and its bytes in {@code rawValue}.
 *
 * @param outcome   the last outcome: a gateway outcome such as {@code BLOCKED} or {@code RETRY_LATER},
 *                  {@code RPC_ERROR} for a call the gateway refused, {@code INVALID} for a task that was never sent
 * @param attempts  how many calls were made (0 for an invalid task)
 * @param source    where the task was read: {@code topic/partition@offset}
 * @param rawValue  base64 of the record's value when it is not a readable task, else null
 */
public record DeadLetter(ObjectTask task, String outcome, String reason, int attempts, Instant firstFailure,
                         Instant lastFailure, String source, String rawValue) {
}
