package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.junit.jupiter.api.Test;

/**
 * What a populator does after a term fails. The transaction coordinator does not always answer a zombie's commit
 * with a fencing error: when the commit reaches it between a successor's epoch bump and the abort that follows, Kafka
 * 4.3 answers UNKNOWN_SERVER_ERROR (the client's "Unhandled error in EndTxnResponse"). Whatever the error, an
 * instance that ZooKeeper says no longer leads must stand down rather than start a term that fences its successor.
 */
class TermFailureTest {

    /** The error CI saw when the zombie's commit raced its successor's InitProducerId. */
    private static final KafkaException UNKNOWN_SERVER_ERROR = new KafkaException(
            "Unhandled error in EndTxnResponse: The server experienced an unexpected error when processing the request.");

    @Test
    void shouldRejoinTheElectionWhenATermFailsForAnyReasonWhileAnotherInstanceLeads() {
        assertThat(TermFailure.of(UNKNOWN_SERVER_ERROR, () -> false)).isEqualTo(TermFailure.SUPERSEDED);
        assertThat(TermFailure.of(new TimeoutException("EndTxn timed out"), () -> false))
                .isEqualTo(TermFailure.SUPERSEDED);
    }

    @Test
    void shouldRejoinWithoutAskingZooKeeperWhenKafkaSaysASuccessorFencedIt() {
        assertThat(TermFailure.of(new ProducerFencedException("fenced"), () -> {
            throw new AssertionError("fencing needs no ZooKeeper read");
        })).isEqualTo(TermFailure.FENCED);
    }

    @Test
    void shouldRetryFromTheCheckpointWhenItStillLeads() {
        assertThat(TermFailure.of(UNKNOWN_SERVER_ERROR, () -> true)).isEqualTo(TermFailure.RETRY);
    }

    @Test
    void shouldRetryWhenZooKeeperCannotSayWhoLeads() {
        // The next round's wait for leadership decides then; a read that failed proves nothing either way.
        assertThat(TermFailure.of(UNKNOWN_SERVER_ERROR, () -> {
            throw new IllegalStateException("connection loss");
        })).isEqualTo(TermFailure.RETRY);
    }
}
