package io.tidemark.conductor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** The conductor's meters. */
public final class ConductorMetrics {

    private final MeterRegistry registry;
    private final Map<PassOutcome, Counter> passes = new ConcurrentHashMap<>();
    private final Map<String, AtomicReference<Double>> backlogs = new ConcurrentHashMap<>();
    private final Counter seeded;
    private final Counter underWay;
    private final Counter resumed;
    private final Timer duration;
    private final AtomicLong lastPassSeconds = new AtomicLong();

    /**
     * @param gatedGroups the groups whose backlog gates a pass: their gauges exist from the start, NaN (unknown)
     *                    until a pass has read them, so dashboards and alerts find them before the first pass
     */
    public ConductorMetrics(MeterRegistry registry, List<String> gatedGroups) {
        this.registry = registry;
        gatedGroups.forEach(this::backlogHolder);
        for (PassOutcome outcome : PassOutcome.values()) {
            passes.put(outcome, Counter.builder("tidemark.conductor.passes").tag("outcome", outcome.label())
                    .description("Walker passes, by outcome (ran, skipped-lock, skipped-backlog, skipped-paused, failed)")
                    .register(registry));
        }
        seeded = Counter.builder("tidemark.conductor.buckets.seeded")
                .description("Buckets given a steady walk task").register(registry);
        underWay = Counter.builder("tidemark.conductor.buckets.under.way")
                .description("Buckets not seeded because their previous walk is still going").register(registry);
        resumed = Counter.builder("tidemark.conductor.walks.resumed")
                .description("Failed walks, and stalled recovery walks, taken up again from their resume point").register(registry);
        duration = Timer.builder("tidemark.conductor.pass.duration").description("How long passes took")
                .register(registry);
        Gauge.builder("tidemark.conductor.last.pass.timestamp.seconds", lastPassSeconds, AtomicLong::get)
                .description("When the last pass ended (Unix seconds)").register(registry);
    }

    void pass(PassReport report, Duration took, java.time.Instant ended) {
        passes.get(report.outcome()).increment();
        duration.record(took);
        lastPassSeconds.set(ended.getEpochSecond());
    }

    void seeded(int buckets, int skipped) {
        seeded.increment(buckets);
        underWay.increment(skipped);
    }

    void resumed() {
        resumed.increment();
    }

    public double resumedCount() {
        return resumed.count();
    }

    void backlog(String group, long records) {
        backlogHolder(group).set((double) records);
    }

    private AtomicReference<Double> backlogHolder(String group) {
        return backlogs.computeIfAbsent(group, g -> {
            AtomicReference<Double> holder = new AtomicReference<>(Double.NaN);
            Gauge.builder("tidemark.conductor.group.backlog", holder, AtomicReference::get).tag("group", g)
                    .description("The group's backlog as the last pass read it (NaN before the first pass)")
                    .register(registry);
            return holder;
        });
    }

    public double passes(PassOutcome outcome) {
        return passes.get(outcome).count();
    }
}
