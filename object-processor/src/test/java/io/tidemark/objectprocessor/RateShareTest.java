package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateShareTest {

    @Test
    void shouldShareTheGroupRateByThePartitionsHeld() {
        assertThat(RateShare.of(100, 3, 12)).isEqualTo(25.0);
        assertThat(RateShare.of(100, 12, 12)).isEqualTo(100.0);
    }

    @Test
    void shouldAddUpToTheGroupRateOverEveryInstanceOfTheGroup() {
        assertThat(RateShare.of(90, 5, 12) + RateShare.of(90, 4, 12) + RateShare.of(90, 3, 12)).isEqualTo(90.0);
    }

    @Test
    void shouldNeverGiveAnInstanceMoreThanTheGroupRateWhenPartitionsWereAddedSinceItStarted() {
        assertThat(RateShare.of(100, 16, 12)).isEqualTo(100.0);
    }
}
