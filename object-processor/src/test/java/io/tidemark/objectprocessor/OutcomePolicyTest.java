package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.tidemark.messages.ObjectTask;
import io.tidemark.objectprocessor.OutcomePolicy.Decision;
import io.tidemark.objectprocessor.OutcomePolicy.Verdict;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class OutcomePolicyTest {

    private final OutcomePolicy policy = new OutcomePolicy(3, 4);
    private static final ObjectTask FROM_TIMER = task("replay-scan");
    private static final ObjectTask FROM_RECHECK = task(OutcomePolicy.RECHECK_SCAN + "a1");

    private static ObjectTask task(String scanId) {
        return new ObjectTask("a1", "expire", "EXPIRATION_DAYS", new ObjectTask.Target("b", "k", ""),
                new ObjectTask.Details(null, "r", "0102030405060708", Instant.EPOCH, "walker", scanId));
    }

    private static LifecycleDeleteResponse answer(LifecycleDeleteOutcome outcome) {
        return answer(outcome, "why");
    }

    private static LifecycleDeleteResponse answer(LifecycleDeleteOutcome outcome, String reason) {
        return LifecycleDeleteResponse.newBuilder().setOutcome(outcome).setReason(reason).build();
    }

    private static SeaweedCallException failed(Status status) {
        return new SeaweedCallException("LifecycleDelete b/k", status.asRuntimeException());
    }

    @Test
    void shouldFinishTaskWhenOutcomeIsDoneOrResolved() {
        assertThat(policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.DONE), 1))
                .isEqualTo(new Decision(Verdict.COMPLETE, "DONE", "why", false));
        assertThat(policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND_AT_DELETE"), 1))
                .isEqualTo(new Decision(Verdict.COMPLETE, "NOOP_RESOLVED", "NOT_FOUND_AT_DELETE", false));
        assertThat(policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "VERSION_IS_LATEST"), 1)
                .walkTheKey()).isFalse();
    }

    @Test
    void shouldAskForAWalkOfTheKeyWhenTheAnswerMeansNotNow() {
        for (LifecycleDeleteResponse notNow : new LifecycleDeleteResponse[] {
            answer(LifecycleDeleteOutcome.SKIPPED_OBJECT_LOCK, "object is under legal hold"),
            answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND"),
            answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "STALE_IDENTITY")}) {
            Decision d = policy.decide(FROM_TIMER, notNow, 1);
            assertThat(d.verdict()).as(notNow.getReason()).isEqualTo(Verdict.COMPLETE);
            assertThat(d.walkTheKey()).as(notNow.getReason()).isTrue();
        }
    }

    @Test
    void shouldRetryThenParkATaskOfARecheckWalkThatMeetsTheSameAnswerAgainRatherThanLoop() {
        LifecycleDeleteResponse lock = answer(LifecycleDeleteOutcome.SKIPPED_OBJECT_LOCK, "lock check failed");
        assertThat(policy.decide(FROM_RECHECK, lock, 1).verdict()).isEqualTo(Verdict.RETRY_LATER);
        assertThat(policy.decide(FROM_RECHECK, lock, 3).verdict()).isEqualTo(Verdict.PARK);
        assertThat(policy.decide(FROM_RECHECK, answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND"), 3).reason())
                .contains("after 3 attempts");
        // A changed entry is a new write each time: walking again can never loop on its own.
        assertThat(policy.decide(FROM_RECHECK, answer(LifecycleDeleteOutcome.NOOP_RESOLVED, "STALE_IDENTITY"), 1)
                .walkTheKey()).isTrue();
    }

    @Test
    void shouldParkTaskWhenOutcomeIsBlocked() {
        Decision d = policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.BLOCKED), 1);
        assertThat(d.verdict()).isEqualTo(Verdict.PARK);
        assertThat(d.outcome()).isEqualTo("BLOCKED");
        assertThat(d.reason()).isEqualTo("why");
    }

    @Test
    void shouldRetryLaterUpToTheLimitThenPark() {
        assertThat(policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.RETRY_LATER), 1).verdict())
                .isEqualTo(Verdict.RETRY_LATER);
        assertThat(policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.RETRY_LATER), 2).verdict())
                .isEqualTo(Verdict.RETRY_LATER);
        Decision last = policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.RETRY_LATER), 3);
        assertThat(last.verdict()).isEqualTo(Verdict.PARK);
        assertThat(last.reason()).contains("after 3 attempts");
    }

    @Test
    void shouldParkAnOutcomeItDoesNotKnowRatherThanGuess() {
        assertThat(policy.decide(FROM_TIMER, answer(LifecycleDeleteOutcome.LIFECYCLE_DELETE_OUTCOME_UNSPECIFIED), 1)
                .verdict()).isEqualTo(Verdict.PARK);
    }

    @Test
    void shouldParkACallTheGatewayRefusedForGoodAtOnce() {
        for (Status refusal : new Status[] {Status.UNIMPLEMENTED, Status.INVALID_ARGUMENT, Status.PERMISSION_DENIED,
            Status.FAILED_PRECONDITION}) {
            Decision d = policy.refused(failed(refusal.withDescription("no")), 1);
            assertThat(d.verdict()).as(refusal.getCode().name()).isEqualTo(Verdict.PARK);
            assertThat(d.outcome()).isEqualTo("RPC_ERROR");
            assertThat(d.reason()).contains(refusal.getCode().name());
        }
    }

    @Test
    void shouldRetryACallTheServerFailedOnUpToItsLimitThenPark() {
        for (Status fault : new Status[] {Status.UNKNOWN, Status.INTERNAL, Status.CANCELLED}) {
            assertThat(policy.refused(failed(fault), 1).verdict()).as(fault.getCode().name())
                    .isEqualTo(Verdict.RETRY_LATER);
            assertThat(policy.refused(failed(fault), 3).verdict()).isEqualTo(Verdict.RETRY_LATER);
            Decision last = policy.refused(failed(fault), 4);
            assertThat(last.verdict()).isEqualTo(Verdict.PARK);
            assertThat(last.outcome()).isEqualTo("RPC_ERROR");
        }
    }

    /**
     * Found in review: a noncurrent task that a walk of its key produced, found due later than that walk judged, is
     * never finished without a walk (that lost the version for good in a timers-only bucket): it waits, re-checked.
     */
    @Test
    void shouldHoldATaskFromAWalkOfItsKeyThatIsDueLaterRatherThanFinishIt() {
        Instant now = Instant.parse("2026-03-01T00:00:00Z");
        Instant due = now.plus(java.time.Duration.ofHours(6));

        Decision fromWalk = OutcomePolicy.dueLater(due, now, "demoted again", true);
        Decision fromTimer = OutcomePolicy.dueLater(due, now, "demoted again", false);

        assertThat(fromWalk.verdict()).isEqualTo(Verdict.RETRY_LATER);
        assertThat(fromWalk.outcome()).isEqualTo(OutcomePolicy.NOT_DUE_YET);
        assertThat(fromWalk.retryIn()).isEqualTo(OutcomePolicy.EARLY_WAIT_MAX);
        assertThat(fromTimer.verdict()).isEqualTo(Verdict.COMPLETE);
        assertThat(fromTimer.walkTheKey()).as("a walk of the key re-arms it").isTrue();
    }
}
