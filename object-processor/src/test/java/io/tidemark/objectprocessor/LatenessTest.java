package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.MutableClock;
import io.tidemark.messages.ObjectTask;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class LatenessTest {

    private static final Instant DUE = Instant.parse("2026-11-20T00:00:00Z");

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    /** The filer's clock, which the lateness is read on: the host's may be off. */
    private final MutableClock filer = new MutableClock(DUE);
    private final Lateness lateness = new Lateness(registry, new LatenessSettings(Duration.ofMinutes(5), 0.99,
            Duration.ofDays(1), Set.of("named")), filer);

    static ObjectTask task(String bucket, String key, Instant due, String origin, String scanId) {
        return new ObjectTask("a-" + key, "expire", "EXPIRATION_DAYS", new ObjectTask.Target(bucket, key, ""),
                new ObjectTask.Details(new ObjectTask.ExpectedIdentity(1, 1, "3,01", ""), "r", "00", due, origin,
                        scanId));
    }

    private Timer histogram(String path, String outcome, String bucket) {
        return registry.find("tidemark.object.processor.lateness").tags("path", path, "outcome", outcome, "bucket",
                bucket).timer();
    }

    private double deletes(String result) {
        Counter c = registry.find("tidemark.object.processor.slo.deletes").tag("result", result).counter();
        return c == null ? 0 : c.count();
    }

    @Test
    void shouldRecordHowLongAfterItsDueInstantADeleteWasAnsweredOnTheFilersClock() {
        filer.advance(Duration.ofSeconds(42));
        assertThat(lateness.finished(task("b", "k", DUE, "replay", null), "DONE", lateness.now()))
                .hasValue(Duration.ofSeconds(42));
        Timer timer = histogram("timer", "DONE", LatenessSettings.OTHER);
        assertThat(timer.count()).isEqualTo(1);
        assertThat(timer.totalTime(TimeUnit.SECONDS)).isEqualTo(42.0);
        assertThat(deletes(Lateness.ON_TIME)).isEqualTo(1);
        // The objective's threshold is a bucket bound of its own: 42 s lies under it.
        CountAtBucket atObjective = Arrays.stream(timer.takeSnapshot().histogramCounts())
                .filter(b -> b.bucket(TimeUnit.SECONDS) == 300.0).findFirst().orElseThrow();
        assertThat(atObjective.count()).isEqualTo(1);
    }

    @Test
    void shouldCountADeleteLaterThanTheObjectiveAsLateAndOneBeyondTheMaximumApart() {
        filer.advance(Duration.ofMinutes(6));
        lateness.finished(task("b", "k", DUE, "replay", null), "DONE", filer.instant());
        filer.advance(Duration.ofDays(1));
        lateness.finished(task("b", "k2", DUE, "replay", null), "DONE", filer.instant());
        assertThat(deletes(Lateness.ON_TIME)).isZero();
        assertThat(deletes(Lateness.LATE)).isEqualTo(1);
        assertThat(deletes(Lateness.BEYOND_MAX)).isEqualTo(1);
    }

    @Test
    void shouldExportEveryResultAtZeroSoThatTheFirstLateDeleteIsAnIncrease() {
        assertThat(registry.find("tidemark.object.processor.slo.deletes").counters())
                .extracting(c -> c.getId().getTag("result"))
                .containsExactlyInAnyOrder(Lateness.ON_TIME, Lateness.LATE, Lateness.BEYOND_MAX);
        assertThat(deletes(Lateness.LATE) + deletes(Lateness.ON_TIME) + deletes(Lateness.BEYOND_MAX)).isZero();
    }

    /**
     * A steady walk finds what only walks act on (a date, a rank, a lone marker) up to a walk period after it fell
     * due, by design: measured, never counted against the objective.
     */
    @Test
    void shouldMeasureASteadyWalksDeletesWithoutCountingThemAgainstTheObjective() {
        filer.advance(Duration.ofHours(20));
        lateness.finished(task("b", "k", DUE, "walker", "steady-b-1"), "DONE", filer.instant());
        assertThat(histogram("walk", "DONE", LatenessSettings.OTHER).count()).isEqualTo(1);
        assertThat(deletes(Lateness.LATE) + deletes(Lateness.ON_TIME) + deletes(Lateness.BEYOND_MAX)).isZero();
    }

    @Test
    void shouldMeasureRecoveryWalksAndReplayedDeadLettersWithoutCountingThemAgainstTheObjective() {
        filer.advance(Duration.ofDays(40));
        // A rule put today over objects due for weeks, a lifted hold, a dead letter replayed: late by what made them
        // known or possible, not by the engine.
        lateness.finished(task("b", "k", DUE, "walker", "recovery-b-0011-1795"), "DONE", filer.instant());
        lateness.finished(task("b", "k2", DUE, "dlq-replay", null), "DONE", filer.instant());
        assertThat(histogram("recovery", "DONE", LatenessSettings.OTHER).count()).isEqualTo(1);
        assertThat(histogram("dlq", "DONE", LatenessSettings.OTHER).count()).isEqualTo(1);
        assertThat(deletes(Lateness.BEYOND_MAX) + deletes(Lateness.LATE) + deletes(Lateness.ON_TIME)).isZero();
    }

    @Test
    void shouldCountOnlyDeletesAgainstTheObjectiveThoughEveryOutcomeIsMeasured() {
        filer.advance(Duration.ofHours(2));
        lateness.finished(task("b", "k", DUE, "replay", null), "SKIPPED_OBJECT_LOCK", filer.instant());
        lateness.finished(task("b", "k2", DUE, "replay", null), "NOOP_RESOLVED", filer.instant());
        assertThat(histogram("timer", "SKIPPED_OBJECT_LOCK", LatenessSettings.OTHER).count()).isEqualTo(1);
        assertThat(histogram("timer", "NOOP_RESOLVED", LatenessSettings.OTHER).count()).isEqualTo(1);
        assertThat(deletes(Lateness.LATE)).isZero();
    }

    @Test
    void shouldLabelOnlyTheNamedBucketsByName() {
        lateness.finished(task("named", "k", DUE, "replay", null), "DONE", filer.instant());
        lateness.finished(task("tenant-1", "k", DUE, "replay", null), "DONE", filer.instant());
        lateness.finished(task("tenant-2", "k", DUE, "replay", null), "DONE", filer.instant());
        assertThat(histogram("timer", "DONE", "named").count()).isEqualTo(1);
        assertThat(histogram("timer", "DONE", LatenessSettings.OTHER).count()).isEqualTo(2);
        assertThat(registry.find("tidemark.object.processor.lateness").timers()).hasSize(2);
    }

    @Test
    void shouldMeasureNothingForATaskWithoutADueInstant() {
        assertThat(lateness.finished(task("b", "k", null, "replay", null), "DONE", filer.instant())).isEmpty();
        assertThat(registry.find("tidemark.object.processor.lateness").timers()).isEmpty();
    }

    @Test
    void shouldShowHowOverdueTheOldestUnfinishedTaskIsAndNothingWhenNoneIs() {
        filer.advance(Duration.ofMinutes(3));
        lateness.oldestDue(Optional.of(DUE));
        assertThat(registry.get("tidemark.object.processor.oldest.overdue.seconds").gauge().value()).isEqualTo(180.0);
        lateness.oldestDue(Optional.of(DUE.plus(Duration.ofHours(1))));
        assertThat(registry.get("tidemark.object.processor.oldest.overdue.seconds").gauge().value())
                .as("due later than now: not overdue").isZero();
        lateness.oldestDue(Optional.empty());
        assertThat(registry.get("tidemark.object.processor.oldest.overdue.seconds").gauge().value()).isZero();
    }

    @Test
    void shouldExportTheObjectiveForTheBurnRateAlert() {
        assertThat(registry.get("tidemark.object.processor.slo.objective").gauge().value()).isEqualTo(0.99);
        assertThat(registry.get("tidemark.object.processor.slo.on.time.seconds").gauge().value()).isEqualTo(300.0);
    }

    @Test
    void shouldRefuseAMaximumLatenessNotAboveTheObjectivesThreshold() {
        assertThatThrownBy(() -> LatenessSettings.from(new TidemarkConfig(Map.of(
                LatenessSettings.ON_TIME_SECONDS, "600", LatenessSettings.MAX_SECONDS, "600"))))
                .isInstanceOf(ConfigException.class).hasMessageContaining(LatenessSettings.MAX_SECONDS);
        LatenessSettings defaults = LatenessSettings.from(new TidemarkConfig(Map.of()));
        assertThat(defaults.onTime()).isEqualTo(Duration.ofMinutes(5));
        assertThat(defaults.max()).isEqualTo(Duration.ofDays(1));
        assertThat(defaults.objective()).isEqualTo(0.99);
        assertThat(defaults.buckets()).isEmpty();
    }
}
