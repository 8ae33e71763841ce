package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;
import org.junit.jupiter.api.Test;

class ClockTimeTest {

    @Test
    void shouldBeKafkasOwnTimeForTheSystemClock() {
        assertThat(ClockTime.of(Clock.systemUTC())).isSameAs(Time.SYSTEM);
    }

    @Test
    void shouldTellWallClockTimeByTheServicesClock() {
        Clock ahead = Clock.offset(Clock.systemUTC(), Duration.ofDays(3));
        long now = System.currentTimeMillis();
        assertThat(ClockTime.of(ahead).milliseconds()).isBetween(now + Duration.ofDays(3).toMillis() - 1_000,
                now + Duration.ofDays(3).toMillis() + 60_000);
        assertThat(ClockTime.of(Clock.fixed(Instant.ofEpochMilli(42), ZoneOffset.UTC)).milliseconds()).isEqualTo(42);
    }

    @Test
    void shouldGiveUpWaitingAtTheDeadlineOfItsClock() {
        Time time = ClockTime.of(Clock.offset(Clock.systemUTC(), Duration.ofHours(1)));
        Object lock = new Object();
        long deadline = time.milliseconds() + 50;
        assertThatThrownBy(() -> time.waitObject(lock, () -> false, deadline)).isInstanceOf(TimeoutException.class);
        assertThat(time.milliseconds()).isGreaterThanOrEqualTo(deadline);
    }
}
