package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class JoinedFilerStartTest {

    private static final Duration OVERLAP = Duration.ofSeconds(10);
    private static final Duration SKEW = Duration.ofMillis(500);
    private static final long PUBLISHED = 1_000_000_000_000L;

    @Test
    void shouldTailFromTheOverlapWhenTheMasterWasListedRecently() {
        JoinedFilerStart start = JoinedFilerStart.of(PUBLISHED, OVERLAP, PUBLISHED - 1_000_000_000L, SKEW, ts -> true);
        assertThat(start).isEqualTo(new JoinedFilerStart(PUBLISHED - OVERLAP.toNanos(), -1));
        assertThat(start.walks()).isFalse();
    }

    @Test
    void shouldTailFromTheOverlapWhenNoListIsKnown() {
        assertThat(JoinedFilerStart.of(PUBLISHED, OVERLAP, null, SKEW, ts -> false))
                .isEqualTo(new JoinedFilerStart(PUBLISHED - OVERLAP.toNanos(), -1));
    }

    @Test
    void shouldReadBackFromTheLastListWithoutItLessTheSkewWhilePeersCopiesThereAreRecognised() {
        long listed = PUBLISHED - Duration.ofMinutes(2).toNanos();
        JoinedFilerStart start = JoinedFilerStart.of(PUBLISHED, OVERLAP, listed, SKEW, ts -> true);
        assertThat(start).isEqualTo(new JoinedFilerStart(listed - SKEW.toNanos(), -1));
    }

    @Test
    void shouldWalkTheSpanBeforeTheOverlapWhenPeersCopiesThereCouldNotBeToldApart() {
        long listed = PUBLISHED - Duration.ofMinutes(2).toNanos();
        long rememberedFrom = PUBLISHED - Duration.ofMinutes(1).toNanos();
        JoinedFilerStart start = JoinedFilerStart.of(PUBLISHED, OVERLAP, listed, SKEW, ts -> ts >= rememberedFrom);
        assertThat(start).isEqualTo(new JoinedFilerStart(PUBLISHED - OVERLAP.toNanos(), listed - SKEW.toNanos()));
        assertThat(start.walks()).isTrue();
    }

    @Test
    void shouldNeverStartBeforeTheEpoch() {
        assertThat(JoinedFilerStart.of(5, OVERLAP, 3L, SKEW, ts -> true)).isEqualTo(new JoinedFilerStart(0, -1));
    }
}
