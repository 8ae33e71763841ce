package io.tidemark.bucketprocessor;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * How fresh each walked bucket's last walk is, for the "walker not finished within its period" alert. It reads
 * the walk states in ZooKeeper, not this process's own walks, so every instance reports the same figures, they
 * survive restarts, and a walk another instance finished counts. The figure per bucket is when its last walk
 * finished, or, before any walk has finished, when the first one started (a first walk that never ends ages
 * too). A walkable bucket no walk has been seeded for yet is counted apart: the conductor's pass has not reached
 * it. The conductor's own last pass, which it records in ZooKeeper, is exported here too.
 */
final class WalkFreshness {

    private final LifecycleBuckets registry;
    private final WalkStates walks;
    private final MultiGauge lastFinished;
    private final MultiGauge failed;
    private final AtomicLong unseeded = new AtomicLong();
    private final Callable<Optional<ConductorPassRecord>> conductor;
    private final MultiGauge lastPass;
    private final MultiGauge lastPassOutcome;

    /** {@code conductor}: the conductor's last pass as recorded in ZooKeeper ({@link ConductorPassRecord#read}). */
    WalkFreshness(LifecycleBuckets registry, WalkStates walks, Callable<Optional<ConductorPassRecord>> conductor,
                  MeterRegistry meters) {
        this.registry = registry;
        this.walks = walks;
        this.conductor = conductor;
        this.lastPass = MultiGauge.builder("tidemark.walker.conductor.last.pass.timestamp.seconds")
                .description("When the conductor's last pass ended, whatever its outcome, as it recorded it in "
                        + "ZooKeeper (a conductor run as a CronJob is scraped by no one)").baseUnit("seconds")
                .register(meters);
        this.lastPassOutcome = MultiGauge.builder("tidemark.walker.conductor.last.pass.outcome")
                .description("1 for the outcome of the conductor's last pass (ran, skipped-lock, skipped-backlog, "
                        + "skipped-paused, failed), 0 for the others").register(meters);
        this.lastFinished = MultiGauge.builder("tidemark.walker.last.finished.timestamp.seconds")
                .description("Per walked bucket: when its last walk finished (before any, when the first started)")
                .baseUnit("seconds").register(meters);
        this.failed = MultiGauge.builder("tidemark.walker.walk.failed")
                .description("Per bucket whose newest walk stopped on a page it could not walk: 1 until the conductor "
                        + "resumes it (its state names the page and why)").register(meters);
        Gauge.builder("tidemark.walker.buckets.unseeded", unseeded, AtomicLong::get)
                .description("Buckets whose rules need walks and that no walk has been seeded for yet")
                .register(meters);
    }

    /** Reads the registry and the walk states once and replaces the published figures. */
    void refresh() throws Exception {
        List<MultiGauge.Row<?>> rows = new ArrayList<>();
        List<MultiGauge.Row<?>> failedRows = new ArrayList<>();
        long never = 0;
        for (var node : registry.readAll().entrySet()) {
            String bucket = node.getKey();
            Optional<WalkState> state = walks.read(bucket);
            if (state.map(WalkState::failed).orElse(false)) {
                failedRows.add(MultiGauge.Row.of(Tags.of("bucket", bucket), 1.0));
            }
            if (!RegistryEntry.walked(node.getValue())) {
                continue;
            }
            Optional<Instant> since = state.flatMap(WalkFreshness::freshness);
            if (since.isEmpty()) {
                never++;
                continue;
            }
            rows.add(MultiGauge.Row.of(Tags.of("bucket", bucket), since.get().toEpochMilli() / 1000.0));
        }
        lastFinished.register(rows, true);
        failed.register(failedRows, true);
        unseeded.set(never);
        Optional<ConductorPassRecord> pass = conductor.call();
        lastPass.register(pass.map(p -> List.<MultiGauge.Row<?>>of(MultiGauge.Row.of(Tags.empty(),
                p.endedAt().toEpochMilli() / 1000.0))).orElse(List.of()), true);
        // Every outcome exported, the last pass's at 1, so that a rule can read any of them.
        lastPassOutcome.register(pass.map(p -> Stream.concat(ConductorPassRecord.OUTCOMES.stream(),
                Stream.of(p.outcome())).distinct().<MultiGauge.Row<?>>map(o -> MultiGauge.Row.of(
                Tags.of("outcome", o), o.equals(p.outcome()) ? 1.0 : 0.0)).toList()).orElse(List.of()), true);
    }


    static Optional<Instant> freshness(WalkState state) {
        if (state.finishedAt() != null) {
            return Optional.of(state.finishedAt());
        }
        if (state.lastFinishedAt() != null) {
            return Optional.of(state.lastFinishedAt());
        }
        return Optional.ofNullable(state.startedAt());
    }
}
