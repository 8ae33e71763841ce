package io.tidemark.topics;

import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.InvalidTxnStateException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionAbortedException;

/**
 * What a failed Kafka call means for the service that made it, read from the error and its causes: one sorting of
 * Kafka's errors for every service, so that the same error is handled the same way everywhere.
 */
public enum KafkaFailure {
    /**
     * Another instance took over: the coordinator moved the transactional id past this producer's epoch (a newer
     * producer with the id exists, or the coordinator aborted the transaction with an epoch bump), or a newer member
     * has the same group instance id. Under transactions v2 a commit arriving between that abort and the successor's
     * InitProducerId is taken for a retry of the completed abort and answered INVALID_TXN_STATE, so that counts too.
     * Either way this producer can never commit again and nothing it sent is visible. A transaction that outlived its
     * timeout shows the same errors without any successor: see {@link TransactionTimedOut}.
     */
    FENCED,
    /** A call or a transaction ran out of time; what it did may or may not have happened. */
    TIMED_OUT,
    /** A failure Kafka says may pass: the same call may be made again. */
    RETRIABLE,
    /** Anything else: the client may be unusable, and trying the same call again will not help. */
    OTHER;

    public static KafkaFailure of(Throwable error) {
        boolean timedOut = false;
        boolean retriable = false;
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof TransactionTimedOut) {
                // Fencing that follows a transaction aborted for its age is the coordinator's doing, not a successor's.
                return TIMED_OUT;
            }
            if (t instanceof ProducerFencedException || t instanceof InvalidProducerEpochException
                    || t instanceof InvalidTxnStateException || t instanceof FencedInstanceIdException) {
                return FENCED;
            }
            timedOut |= t instanceof TimeoutException;
            retriable |= t instanceof RetriableException || t instanceof TransactionAbortedException;
            if (t.getCause() == t) {
                break;
            }
        }
        return timedOut ? TIMED_OUT : retriable ? RETRIABLE : OTHER;
    }

    /**
     * Marks an error that ended a transaction the coordinator aborted for its age: what follows from it (a bumped
     * epoch, a fenced producer) is {@link #TIMED_OUT}, not {@link #FENCED}.
     */
    public interface TransactionTimedOut {
    }
}
