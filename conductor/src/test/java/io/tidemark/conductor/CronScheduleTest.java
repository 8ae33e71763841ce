package io.tidemark.conductor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CronScheduleTest {

    @Test
    void shouldNameTheNextTimeInUtc() {
        CronSchedule nightly = CronSchedule.parse("30 2 * * *");
        assertThat(nightly.next(Instant.parse("2026-11-23T10:00:00Z"))).contains(Instant.parse("2026-11-24T02:30:00Z"));
        assertThat(nightly.next(Instant.parse("2026-11-24T02:30:00Z"))).contains(Instant.parse("2026-11-25T02:30:00Z"));
    }

    @Test
    void shouldRefuseAnExpressionThatIsNotFiveFieldCron() {
        assertThatThrownBy(() -> CronSchedule.parse("every night")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("five-field");
        assertThatThrownBy(() -> CronSchedule.parse("0 0 2 * * ?")).isInstanceOf(IllegalArgumentException.class);
    }
}
