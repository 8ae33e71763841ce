package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.tidemark.objectprocessor.OutcomePolicy.Verdict;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import org.junit.jupiter.api.Test;

class OutcomePolicyTest {

    private final OutcomePolicy policy = new OutcomePolicy(3);

    private static LifecycleDeleteResponse answer(LifecycleDeleteOutcome outcome) {
        return LifecycleDeleteResponse.newBuilder().setOutcome(outcome).setReason("why").build();
    }

    @Test
    void shouldFinishTaskWhenOutcomeIsDoneResolvedOrSkippedForLock() {
        assertThat(policy.decide(answer(LifecycleDeleteOutcome.DONE), 1).verdict()).isEqualTo(Verdict.COMPLETE);
        assertThat(policy.decide(answer(LifecycleDeleteOutcome.NOOP_RESOLVED), 1).verdict()).isEqualTo(Verdict.COMPLETE);
        assertThat(policy.decide(answer(LifecycleDeleteOutcome.SKIPPED_OBJECT_LOCK), 1).verdict())
                .isEqualTo(Verdict.COMPLETE);
    }

    @Test
    void shouldParkTaskWhenOutcomeIsBlocked() {
        OutcomePolicy.Decision d = policy.decide(answer(LifecycleDeleteOutcome.BLOCKED), 1);
        assertThat(d.verdict()).isEqualTo(Verdict.PARK);
        assertThat(d.outcome()).isEqualTo("BLOCKED");
        assertThat(d.reason()).isEqualTo("why");
    }

    @Test
    void shouldRetryLaterUpToTheLimitThenPark() {
        assertThat(policy.decide(answer(LifecycleDeleteOutcome.RETRY_LATER), 1).verdict()).isEqualTo(Verdict.RETRY_LATER);
        assertThat(policy.decide(answer(LifecycleDeleteOutcome.RETRY_LATER), 2).verdict()).isEqualTo(Verdict.RETRY_LATER);
        OutcomePolicy.Decision last = policy.decide(answer(LifecycleDeleteOutcome.RETRY_LATER), 3);
        assertThat(last.verdict()).isEqualTo(Verdict.PARK);
        assertThat(last.reason()).contains("after 3 attempts");
    }

    @Test
    void shouldParkAnOutcomeItDoesNotKnowRatherThanGuess() {
        assertThat(policy.decide(answer(LifecycleDeleteOutcome.LIFECYCLE_DELETE_OUTCOME_UNSPECIFIED), 1).verdict())
                .isEqualTo(Verdict.PARK);
    }

    @Test
    void shouldParkACallTheGatewayRefusedForGood() {
        OutcomePolicy.Decision d = policy.refused(new SeaweedCallException("LifecycleDelete b/k",
                Status.UNIMPLEMENTED.withDescription("no such method").asRuntimeException()));
        assertThat(d.verdict()).isEqualTo(Verdict.PARK);
        assertThat(d.outcome()).isEqualTo("RPC_ERROR");
        assertThat(d.reason()).contains("UNIMPLEMENTED");
    }
}
