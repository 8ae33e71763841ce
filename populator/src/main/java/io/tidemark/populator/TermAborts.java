package io.tidemark.populator;

import io.tidemark.topics.KafkaFailure;
import java.time.Duration;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a term's open transaction ends when it is not committed: aborted because leadership went, or aborted after an
 * error, which then propagates as what it really means. Nothing of an aborted transaction is visible to readers, and
 * the next term starts again from the last checkpoint committed.
 */
final class TermAborts {

    private static final Logger log = LoggerFactory.getLogger(TermAborts.class);

    private final TransactionalPublisher publisher;
    private final Duration transactionTimeout;
    private final PopulatorMetrics metrics;

    TermAborts(TransactionalPublisher publisher, Duration transactionTimeout, PopulatorMetrics metrics) {
        this.publisher = publisher;
        this.transactionTimeout = transactionTimeout;
        this.metrics = metrics;
    }

    /** Aborts the open transaction because this instance no longer leads. */
    void leadershipEnded() {
        publisher.abort();
        metrics.aborted();
        log.info("leadership ended; the open transaction was aborted");
    }

    /**
     * Aborts the open transaction after {@code cause}, if the producer still can, and returns the exception to
     * throw: the cause, or a {@link TransactionTimedOutException} when the transaction had outlived the coordinator's
     * timeout (the coordinator aborted it and fenced the producer: the batch was too slow, not a rival leader).
     */
    Exception afterError(Exception cause) {
        metrics.aborted();
        try {
            publisher.abort();
        } catch (KafkaException | IllegalStateException e) {
            log.debug("abort after {} failed too: {}", cause.toString(), e.toString());
        }
        Duration open = publisher.openFor();
        if (open.compareTo(transactionTimeout) < 0 || KafkaFailure.of(cause) != KafkaFailure.FENCED) {
            return cause;
        }
        metrics.transactionTimedOut();
        return new TransactionTimedOutException(open, transactionTimeout, cause);
    }
}
