package io.tidemark.objectprocessor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * How late each finished task is against its due instant, measured where the delete happens: from the task's due
 * instant to the gateway's answer, on the filer's clock, which stamped the times the due instant is computed from
 * (architecture.md, invariant 7). The service level counts only the deletes ({@code DONE}) of timers, which fire at
 * their due instant. A steady walk's tasks are found once a walk period after they fell due (the kinds only walks
 * act on: a date, a rank, a lone marker); a recovery walk's (after a rule change, a lock lifted, a meta-log gap, a
 * re-check) and replayed dead letters' due instants are older than what made them known or possible. Those are
 * measured apart.
 */
final class Lateness {

    /** Where a task came from, as the lateness metrics label it. */
    enum Path {
        TIMER("timer"), WALK("walk"), RECOVERY("recovery"), DLQ("dlq"), UNKNOWN("unknown");

        final String label;

        Path(String label) {
            this.label = label;
        }

        /** Whether the service level counts this path's deletes: a timer's, which fire at their due instant. */
        boolean counted() {
            return this == TIMER;
        }

        static Path of(ObjectTask.Details details) {
            if (details == null || details.origin() == null) {
                return UNKNOWN;
            }
            return switch (details.origin()) {
                case ObjectTask.FROM_TIMER -> TIMER;
                case ObjectTask.FROM_WALK -> details.scanId() != null && details.scanId().startsWith(BucketTask.STEADY_SCAN_PREFIX)
                        ? WALK : RECOVERY;
                case ObjectTask.FROM_DLQ_REPLAY -> DLQ;
                default -> UNKNOWN;
            };
        }
    }

    /** The on-time counter's results: mutually exclusive, so that their sum is every delete counted. */
    static final String ON_TIME = "on_time";
    static final String LATE = "late";
    static final String BEYOND_MAX = "beyond_max";

    private final MeterRegistry registry;
    private final LatenessSettings settings;
    private final Clock filerClock;
    private final Duration[] buckets;
    private final Map<String, Timer> histograms = new ConcurrentHashMap<>();
    private final Map<String, Counter> results = new ConcurrentHashMap<>();
    private volatile double oldestOverdue;

    /** {@code filerClock}: the filer's time carried forward, never waited for (FilerClock#asClock). */
    Lateness(MeterRegistry registry, LatenessSettings settings, Clock filerClock) {
        this.registry = registry;
        this.settings = settings;
        this.filerClock = filerClock;
        TreeSet<Duration> bounds = new TreeSet<>(Stream.of(250L, 500L, 1_000L, 2_000L, 5_000L, 10_000L, 15_000L,
                30_000L, 60_000L, 120_000L, 300_000L, 600_000L, 1_800_000L, 3_600_000L, 10_800_000L, 21_600_000L,
                43_200_000L, 86_400_000L, 172_800_000L, 604_800_000L).map(Duration::ofMillis).toList());
        // The objective's thresholds are bucket bounds, so a quantile or a ratio at them is exact.
        bounds.add(settings.onTime());
        bounds.add(settings.max());
        this.buckets = bounds.toArray(Duration[]::new);
        // Registered at 0, so that the first late delete is an increase an alert can see.
        for (String result : new String[] {ON_TIME, LATE, BEYOND_MAX}) {
            results.put(result, Counter.builder("tidemark.object.processor.slo.deletes").tag("result", result)
                    .description("Deletes of the timer path against the lateness objective: on time, late, or "
                            + "beyond the maximum").register(registry));
        }
        Gauge.builder("tidemark.object.processor.slo.objective", settings, LatenessSettings::objective)
                .description("The share of deletes to be on time (object-processor.lateness.slo.objective)")
                .register(registry);
        Gauge.builder("tidemark.object.processor.slo.on.time.seconds", settings, s -> s.onTime().toSeconds())
                .description("How soon after its due instant a delete is on time "
                        + "(object-processor.lateness.slo.seconds)")
                .register(registry);
        Gauge.builder("tidemark.object.processor.oldest.overdue.seconds", this, l -> l.oldestOverdue)
                .description("How long past its due instant the oldest timer's task this instance holds unfinished "
                        + "is, on the filer's clock (0: none is overdue)").register(registry);
    }

    /** The filer's time now, carried forward from its last reading: when an answer came. */
    Instant now() {
        return filerClock.instant();
    }

    /**
     * A task finished with {@code outcome}, answered at {@code answeredAt} ({@link #now}): its lateness, recorded;
     * empty for a task without a due instant.
     */
    Optional<Duration> finished(ObjectTask task, String outcome, Instant answeredAt) {
        ObjectTask.Details details = task.details();
        if (details == null || details.dueAt() == null) {
            return Optional.empty();
        }
        Duration late = lateness(details.dueAt(), answeredAt);
        Path path = Path.of(details);
        String bucket = settings.label(task.target().bucket());
        histograms.computeIfAbsent(path.label + "|" + outcome + "|" + bucket, k -> Timer
                .builder("tidemark.object.processor.lateness")
                .tags("path", path.label, "outcome", outcome, "bucket", bucket)
                .serviceLevelObjectives(buckets)
                .description("From a finished task's due instant to the gateway's answer, on the filer's clock")
                .register(registry)).record(late);
        if (path.counted() && "DONE".equals(outcome)) {
            results.get(late.compareTo(settings.max()) > 0 ? BEYOND_MAX
                    : late.compareTo(settings.onTime()) > 0 ? LATE : ON_TIME).increment();
        }
        return Optional.of(late);
    }

    /** The oldest due instant among the timers' tasks held unfinished, if any: the gauge follows it. */
    void oldestDue(Optional<Instant> due) {
        oldestOverdue = due.map(d -> lateness(d, filerClock.instant()).toMillis() / 1000.0).orElse(0.0);
    }

    /** Never below zero: a task is never carried out before it is due on the filer's clock (RuleRecheck). */
    static Duration lateness(Instant due, Instant done) {
        Duration late = Duration.between(due, done);
        return late.isNegative() ? Duration.ZERO : late;
    }
}
