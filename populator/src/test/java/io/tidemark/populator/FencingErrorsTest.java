package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * Which errors tell a transactional producer that a successor took over its transactional id. With transactions
 * v2 (Kafka 4.x) the coordinator bumps the epoch when it aborts the zombie's open transaction; a commit that
 * reaches it after that abort and before the successor's InitProducerId looks like a retry of the completed abort
 * and is answered INVALID_TXN_STATE, not PRODUCER_FENCED.
 */
class FencingErrorsTest {

    @Test
    void shouldTreatEveryErrorOfAFencedProducerAsFencing() {
        assertThat(PopulatorService.fenced(new ProducerFencedException("fenced"))).isTrue();
        assertThat(PopulatorService.fenced(new InvalidProducerEpochException("old epoch"))).isTrue();
        assertThat(PopulatorService.fenced(new KafkaException("commit failed",
                new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state."))))
                .isTrue();
    }

    @Test
    void shouldNotTreatATransientFailureAsFencing() {
        assertThat(PopulatorService.fenced(new TimeoutException("EndTxn timed out"))).isFalse();
        assertThat(PopulatorService.fenced(new KafkaException("x", new CoordinatorNotAvailableException("moving"))))
                .isFalse();
    }
}
