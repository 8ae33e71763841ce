package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The merge lets an event go once every filer is the skew margin past it. A stream read only to a fixed count could
 * stop short of that when its stamps are dense (a catch-up over a burst of writes): nothing would go until the filers
 * fell quiet, and a 100 000-event catch-up of three filers did not finish in 15 minutes (docs/benchmarks.md).
 */
class FilerTailsReadLimitTest {

    private static final Duration SKEW = Duration.ofMillis(500);

    @Test
    void shouldReadAStreamFurtherWhileItsPendingEventsSpanLessThanTwiceTheSkew() {
        assertThat(FilerTails.readLimit(0, SKEW, 5_000)).isEqualTo(80_000);
        assertThat(FilerTails.readLimit(SKEW.toNanos() * 2 - 1, SKEW, 5_000)).isEqualTo(80_000);
    }

    @Test
    void shouldHoldAStreamToFourBatchesOnceItsPendingEventsSpanTwiceTheSkew() {
        assertThat(FilerTails.readLimit(SKEW.toNanos() * 2, SKEW, 5_000)).isEqualTo(20_000);
        assertThat(FilerTails.readLimit(Duration.ofMinutes(1).toNanos(), SKEW, 1_000)).isEqualTo(4_000);
    }
}
