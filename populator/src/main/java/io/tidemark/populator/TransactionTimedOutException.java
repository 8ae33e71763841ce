package io.tidemark.populator;

import io.tidemark.topics.KafkaFailure;
import java.time.Duration;

/**
 * A Kafka transaction failed after it had been open longer than the producer's {@code transaction.timeout.ms}:
 * the coordinator aborted it and bumped the epoch, so the error reads like fencing, but no successor exists. The
 * instance keeps its place in the election and retries the term from the committed checkpoint.
 */
public final class TransactionTimedOutException extends RuntimeException implements KafkaFailure.TransactionTimedOut {

    public TransactionTimedOutException(Duration open, Duration timeout, Throwable cause) {
        super("the transaction was open " + open.toMillis() + " ms, past transaction.timeout.ms=" + timeout.toMillis()
                + ", and the coordinator aborted it: " + cause, cause);
    }
}
