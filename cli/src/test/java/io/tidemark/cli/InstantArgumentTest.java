package io.tidemark.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class InstantArgumentTest {

    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");
    private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

    @Test
    void shouldReadAnAgeInDaysHoursOrMinutesAsThatLongBeforeNow() {
        assertThat(InstantArgument.parse("7d", CLOCK)).isEqualTo(NOW.minus(Duration.ofDays(7)));
        assertThat(InstantArgument.parse("2h", CLOCK)).isEqualTo(NOW.minus(Duration.ofHours(2)));
        assertThat(InstantArgument.parse(" 30m ", CLOCK)).isEqualTo(NOW.minus(Duration.ofMinutes(30)));
    }

    @Test
    void shouldReadAnIso8601InstantAsWritten() {
        assertThat(InstantArgument.parse("2026-11-01T00:00:00Z", CLOCK)).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
    }

    @Test
    void shouldRefuseAnythingElseSayingWhatItTakes() {
        assertThatIllegalArgumentException().isThrownBy(() -> InstantArgument.parse("2w", CLOCK))
                .withMessageContaining("'2w' is neither an instant (2026-11-01T00:00:00Z) nor an age (7d, 12h, 30m)");
    }
}
