package io.tidemark.topics;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.FencedInstanceIdException;
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
class KafkaFailureTest {

    @Test
    void shouldTreatEveryErrorOfAFencedProducerAsFencing() {
        assertThat(KafkaFailure.of(new ProducerFencedException("fenced"))).isEqualTo(KafkaFailure.FENCED);
        assertThat(KafkaFailure.of(new InvalidProducerEpochException("old epoch"))).isEqualTo(KafkaFailure.FENCED);
        assertThat(KafkaFailure.of(new KafkaException("commit failed",
                new InvalidTxnStateException("The producer attempted a transactional operation in an invalid state."))))
                .isEqualTo(KafkaFailure.FENCED);
    }

    @Test
    void shouldNotTreatATransientFailureAsFencing() {
        assertThat(KafkaFailure.of(new TimeoutException("EndTxn timed out"))).isEqualTo(KafkaFailure.TIMED_OUT);
        assertThat(KafkaFailure.of(new KafkaException("x", new CoordinatorNotAvailableException("moving"))))
                .isEqualTo(KafkaFailure.RETRIABLE);
    }

    @Test
    void shouldTakeFencingAfterATransactionAbortedForItsAgeForATimeout() {
        class AbortedForAge extends RuntimeException implements KafkaFailure.TransactionTimedOut {
            AbortedForAge(Throwable cause) {
                super(cause);
            }
        }
        assertThat(KafkaFailure.of(new AbortedForAge(new InvalidProducerEpochException("bumped"))))
                .isEqualTo(KafkaFailure.TIMED_OUT);
    }

    @Test
    void shouldTakeAStaticMemberReplacedByANewerOneForFencing() {
        assertThat(KafkaFailure.of(new FencedInstanceIdException("a newer member"))).isEqualTo(KafkaFailure.FENCED);
    }

    @Test
    void shouldLeaveAnyOtherErrorToTheCaller() {
        assertThat(KafkaFailure.of(new KafkaException("Unhandled error in EndTxnResponse")))
                .isEqualTo(KafkaFailure.OTHER);
        assertThat(KafkaFailure.of(new IllegalStateException("not Kafka"))).isEqualTo(KafkaFailure.OTHER);
    }
}
