package io.tidemark.populator;

import io.tidemark.topics.KafkaFailure;
import java.util.concurrent.Callable;

/** What a populator does after one of its terms ended with an error. */
enum TermFailure {
    /** A successor's transactional producer fenced this one: stand down. */
    FENCED,
    /** ZooKeeper names another instance leader: stand down. */
    SUPERSEDED,
    /** Still the leader: start a new term from the committed checkpoint after a pause. */
    RETRY;

    /**
     * Fencing errors need no second opinion. Any other error is judged by what ZooKeeper says now, not by its class:
     * Kafka 4.3's coordinator answers a zombie's commit that races the successor's epoch bump with
     * UNKNOWN_SERVER_ERROR (a fatal "Unhandled error in EndTxnResponse" in the client), and a timeout or a lost
     * connection can hide a successor just as well. A ZooKeeper read that fails decides nothing: retry, and let the
     * next round's leadership check decide.
     */
    static TermFailure of(Throwable error, Callable<Boolean> stillLeads) {
        if (KafkaFailure.of(error) == KafkaFailure.FENCED) {
            return FENCED;
        }
        try {
            return stillLeads.call() ? RETRY : SUPERSEDED;
        } catch (Exception unknown) {
            return RETRY;
        }
    }
}
