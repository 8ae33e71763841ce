package io.tidemark.lifecycle.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class LifecycleCalendarTest {

    private static Instant t(String iso) {
        return Instant.parse(iso);
    }

    @Test
    void shouldRoundUpToTheNextMidnightUnderAwsPolicy() {
        // Created 2014-01-15 10:30 UTC, 3 days: due 2014-01-19 00:00 UTC.
        assertThat(LifecycleCalendar.aws().dueAt(t("2014-01-15T10:30:00Z"), 3)).isEqualTo(t("2014-01-19T00:00:00Z"));
        // Last-Modified 2018-08-14 19:57:04, Days 60: S3 announced 2018-10-14 00:00 GMT.
        assertThat(LifecycleCalendar.aws().dueAt(t("2018-08-14T19:57:04Z"), 60)).isEqualTo(t("2018-10-14T00:00:00Z"));
    }

    @Test
    void shouldKeepADueInstantThatIsAlreadyMidnight() {
        assertThat(LifecycleCalendar.aws().dueAt(t("2024-01-01T00:00:00Z"), 30)).isEqualTo(t("2024-01-31T00:00:00Z"));
    }

    @Test
    void shouldRoundUpEvenOneNanosecondPastMidnight() {
        assertThat(LifecycleCalendar.aws().dueAt(t("2024-01-01T00:00:00.000000001Z"), 1))
                .isEqualTo(t("2024-01-03T00:00:00Z"));
    }

    @Test
    void shouldAddExactDaysUnderExactPolicy() {
        LifecycleCalendar exact = LifecycleCalendar.of(DuePolicy.EXACT, Duration.ofDays(1));
        assertThat(exact.dueAt(t("2014-01-15T10:30:00.5Z"), 3)).isEqualTo(t("2014-01-18T10:30:00.5Z"));
    }

    @Test
    void shouldScaleDaysAndBoundariesToAShortDay() {
        LifecycleCalendar tenSeconds = LifecycleCalendar.of(DuePolicy.AWS, Duration.ofSeconds(10));
        assertThat(tenSeconds.dueAt(t("2024-01-01T00:00:03Z"), 2)).isEqualTo(t("2024-01-01T00:00:30Z"));
        assertThat(tenSeconds.span(3)).isEqualTo(Duration.ofSeconds(30));
        LifecycleCalendar exact = LifecycleCalendar.of(DuePolicy.EXACT, Duration.ofSeconds(10));
        assertThat(exact.dueAt(t("2024-01-01T00:00:03Z"), 2)).isEqualTo(t("2024-01-01T00:00:23Z"));
    }

    @Test
    void shouldRejectDaysThatAreNotWholePositiveSeconds() {
        assertThatThrownBy(() -> LifecycleCalendar.of(DuePolicy.AWS, Duration.ZERO)).hasMessageContaining("positive");
        assertThatThrownBy(() -> LifecycleCalendar.of(DuePolicy.AWS, Duration.ofMillis(1500)))
                .hasMessageContaining("whole number of seconds");
    }

    @Test
    void shouldParsePolicyNames() {
        assertThat(DuePolicy.parse("AWS")).isEqualTo(DuePolicy.AWS);
        assertThat(DuePolicy.parse("exact")).isEqualTo(DuePolicy.EXACT);
        assertThatThrownBy(() -> DuePolicy.parse("daily")).hasMessageContaining("aws or exact");
    }
}
