package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.populator.JoinedFilerStart.Repair;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class JoinedFilerStartTest {

    private static final Duration OVERLAP = Duration.ofSeconds(10);
    private static final Duration SKEW = Duration.ofMillis(500);
    private static final long PUBLISHED = 1_000_000_000_000L;

    @Test
    void shouldTailFromTheOverlapWhenTheMasterWasListedRecently() {
        JoinedFilerStart start = JoinedFilerStart.of(PUBLISHED, OVERLAP, PUBLISHED - 1_000_000_000L, SKEW, ts -> true);
        assertThat(start).isEqualTo(new JoinedFilerStart(PUBLISHED - OVERLAP.toNanos(), -1, Repair.NONE));
        assertThat(start.repair()).isEqualTo(Repair.NONE);
    }

    @Test
    void shouldTailFromTheOverlapWhenNoListIsKnown() {
        assertThat(JoinedFilerStart.of(PUBLISHED, OVERLAP, null, SKEW, ts -> false))
                .isEqualTo(new JoinedFilerStart(PUBLISHED - OVERLAP.toNanos(), -1, Repair.NONE));
    }

    @Test
    void shouldReadBackFromTheLastListWithoutItLessTheSkewWhilePeersCopiesThereAreRecognised() {
        long listed = PUBLISHED - Duration.ofMinutes(2).toNanos();
        JoinedFilerStart start = JoinedFilerStart.of(PUBLISHED, OVERLAP, listed, SKEW, ts -> true);
        assertThat(start).isEqualTo(new JoinedFilerStart(listed - SKEW.toNanos(), -1, Repair.READ_BACK));
    }

    @Test
    void shouldWalkTheSpanBeforeTheOverlapWhenPeersCopiesThereCouldNotBeToldApart() {
        long listed = PUBLISHED - Duration.ofMinutes(2).toNanos();
        long rememberedFrom = PUBLISHED - Duration.ofMinutes(1).toNanos();
        JoinedFilerStart start = JoinedFilerStart.of(PUBLISHED, OVERLAP, listed, SKEW, ts -> ts >= rememberedFrom);
        assertThat(start).isEqualTo(new JoinedFilerStart(PUBLISHED - OVERLAP.toNanos(), listed - SKEW.toNanos(),
                Repair.WALK));
        assertThat(start.repair()).isEqualTo(Repair.WALK);
    }

    @Test
    void shouldNeverStartBeforeTheEpoch() {
        assertThat(JoinedFilerStart.of(5, OVERLAP, 3L, SKEW, ts -> true))
                .isEqualTo(new JoinedFilerStart(0, -1, Repair.NONE));
    }
}
