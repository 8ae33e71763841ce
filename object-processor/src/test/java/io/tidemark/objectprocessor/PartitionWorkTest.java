package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class PartitionWorkTest {

    private static final TopicPartition TP = new TopicPartition("object-tasks", 0);
    private final PartitionWork work = new PartitionWork();

    private PendingTask task(long offset, String lane) {
        return new PendingTask(work, TP, offset, lane, null, null, null);
    }

    @Test
    void shouldNeverCommitPastATaskThatIsNotFinished() {
        PendingTask a = task(10, "b/a");
        PendingTask b = task(11, "b/b");
        PendingTask c = task(12, "b/c");
        work.enqueue(a);
        work.enqueue(b);
        work.enqueue(c);
        assertThat(work.committable()).hasValue(10);
        work.finishHead(b);
        work.finishHead(c);
        assertThat(work.committable()).as("b and c are done, a is not").hasValue(10);
        work.finishHead(a);
        assertThat(work.committable()).hasValue(13);
    }

    @Test
    void shouldRunTasksOfOneObjectInOrderAndOthersBesideThem() {
        PendingTask first = task(0, "b/k");
        PendingTask other = task(1, "b/other");
        PendingTask second = task(2, "b/k");
        assertThat(work.enqueue(first)).isTrue();
        assertThat(work.enqueue(other)).as("another object runs at once").isTrue();
        assertThat(work.enqueue(second)).as("same object waits").isFalse();
        assertThat(work.finishHead(first)).containsSame(second);
        assertThat(work.finishHead(second)).isEmpty();
    }

    @Test
    void shouldCountGapsAndUnsentRecordsLikeAnyOther() {
        work.read(5);
        work.enqueue(task(9, "b/k"));
        assertThat(work.committable()).hasValue(5);
        work.finish(5);
        assertThat(work.committable()).hasValue(9);
        assertThat(work.unfinished()).isEqualTo(1);
    }

    @Test
    void shouldReportHowLongTheLongestHeldObjectHasWaited() {
        Instant now = Instant.parse("2026-11-23T10:00:00Z");
        PendingTask held = task(0, "b/k");
        work.enqueue(held);
        assertThat(work.held(now)).isZero();
        work.hold(held, now.minusSeconds(42));
        assertThat(work.held(now)).isEqualTo(Duration.ofSeconds(42));
    }

    @Test
    void shouldHaveNothingToCommitBeforeAnythingWasRead() {
        assertThat(work.committable()).isEmpty();
    }

    @Test
    void shouldKnowTheOldestDueInstantAmongTheTasksItHoldsUnfinished() {
        Instant early = Instant.parse("2026-11-20T00:00:00Z");
        Instant late = Instant.parse("2026-11-21T00:00:00Z");
        PendingTask first = new PendingTask(work, TP, 0, "b/k", LatenessTest.task("b", "k", late, "replay", null),
                null, null);
        PendingTask second = new PendingTask(work, TP, 1, "b/k", LatenessTest.task("b", "k", early, "replay", null),
                null, null);
        PendingTask other = new PendingTask(work, TP, 2, "b/o", LatenessTest.task("b", "o", early, "replay", null),
                null, null);
        assertThat(work.oldestDue()).isEmpty();
        work.enqueue(first);
        work.enqueue(second);
        work.enqueue(other);
        assertThat(work.oldestDue()).hasValue(early);
        work.finishHead(other);
        assertThat(work.oldestDue()).as("the second task of b/k is due as early, and still held").hasValue(early);
        work.finishHead(first);
        work.finishHead(second);
        assertThat(work.oldestDue()).isEmpty();
    }
}
