package io.tidemark.objectprocessor;

import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;

/**
 * What the processor does with each answer (DESIGN §6): DONE, NOOP_RESOLVED and SKIPPED_OBJECT_LOCK finish the task;
 * RETRY_LATER calls again later, up to a limit, then parks; BLOCKED, an outcome this version does not know, and a
 * call the gateway refuses outright park at once. Transport failures never reach here: the caller repeats them.
 */
final class OutcomePolicy {

    enum Verdict { COMPLETE, RETRY_LATER, PARK }

    /** @param outcome the outcome's name as recorded in metrics, audit and dead letters */
    record Decision(Verdict verdict, String outcome, String reason) {
    }

    static final String RPC_ERROR = "RPC_ERROR";

    private final int retryLaterMaxAttempts;

    OutcomePolicy(int retryLaterMaxAttempts) {
        this.retryLaterMaxAttempts = retryLaterMaxAttempts;
    }

    /** @param attempts calls made so far for this task, this one included */
    Decision decide(LifecycleDeleteResponse response, int attempts) {
        String outcome = response.getOutcome().name();
        String reason = response.getReason();
        return switch (response.getOutcome()) {
            case DONE, NOOP_RESOLVED, SKIPPED_OBJECT_LOCK -> new Decision(Verdict.COMPLETE, outcome, reason);
            case RETRY_LATER -> attempts < retryLaterMaxAttempts
                    ? new Decision(Verdict.RETRY_LATER, outcome, reason)
                    : new Decision(Verdict.PARK, outcome, "still RETRY_LATER after " + attempts + " attempts: " + reason);
            case BLOCKED -> new Decision(Verdict.PARK, outcome, reason);
            default -> new Decision(Verdict.PARK, outcome, "unknown outcome " + outcome + ": " + reason);
        };
    }

    /** A call that failed for good (the gateway refused the request itself). */
    Decision refused(SeaweedCallException error) {
        return new Decision(Verdict.PARK, RPC_ERROR, error.getMessage());
    }
}
