package io.tidemark.conductor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The conductor's meters. */
public final class ConductorMetrics {

    private final MeterRegistry registry;
    private final Map<PassOutcome, Counter> passes = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> backlogs = new ConcurrentHashMap<>();
    private final Counter seeded;
    private final Counter underWay;
    private final Timer duration;
    private final AtomicLong lastPassSeconds = new AtomicLong();

    public ConductorMetrics(MeterRegistry registry) {
        this.registry = registry;
        for (PassOutcome outcome : PassOutcome.values()) {
            passes.put(outcome, Counter.builder("tidemark.conductor.passes").tag("outcome", outcome.label())
                    .description("Walker passes, by outcome (ran, skipped-lock, skipped-backlog, failed)")
                    .register(registry));
        }
        seeded = Counter.builder("tidemark.conductor.buckets.seeded")
                .description("Buckets given a steady walk task").register(registry);
        underWay = Counter.builder("tidemark.conductor.buckets.under.way")
                .description("Buckets not seeded because their previous walk is still going").register(registry);
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

    void backlog(String group, long records) {
        backlogs.computeIfAbsent(group, g -> {
            AtomicLong holder = new AtomicLong();
            Gauge.builder("tidemark.conductor.group.backlog", holder, AtomicLong::get).tag("group", g)
                    .description("The group's backlog as the last pass read it").register(registry);
            return holder;
        }).set(records);
    }

    public double passes(PassOutcome outcome) {
        return passes.get(outcome).count();
    }
}
