package io.tidemark.devtools.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.devtools.bench.CpuByRole;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.populator.PopulatorMetrics;
import io.tidemark.populator.PopulatorService;
import io.tidemark.populator.PopulatorSettings;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The populator's throughput against its ceiling: first the raw rate at which a subscriber drains the emulator's
 * meta-log, then the rate at which the populator publishes the same events into Kafka, each batch and its
 * checkpoint in one transaction. Every round uses fresh topics and a fresh ZooKeeper chroot, and checks that
 * exactly as many events were published as the filer holds.
 *
 * <p>With several filers the writes are spread over them (the gateway sends each operation to the next filer), the
 * populator tails each filer's own meta-log and merges them, and the raw rate is that of draining every filer's own
 * log at once ({@link LocalLogsDrain}).
 */
final class PopulatorBenchmark {

    record Options(int events, int rounds, int batchMaxEvents, int filers, Map<String, String> settings) {
    }

    private PopulatorBenchmark() {
    }

    /** Returns whether every round published exactly the filer's events. */
    static boolean run(Options options, PrintWriter out) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().filers(options.filers()).start()) {
            // With several filers the gateway sends each operation to the next one, whose own log records it.
            S3Gateway s3 = cluster.emulator().s3();
            s3.createBucket("bench", false);
            for (int i = 0; i < options.events() - 1; i++) {
                s3.putObject("bench", String.format("o%08d", i), 1024, Map.of(), Map.of());
            }
            Workload workload = Workload.of(cluster, maxClockSkew(options));
            long expected = workload.expected();
            long lastTs = workload.lastTsNs();
            if (options.filers() == 1) {
                out.printf(Locale.ROOT, "populator benchmark: %d filer events, a warm-up and %d rounds, batches of up to %d "
                                + "events, shard.bits 4%n",
                        expected, options.rounds(), options.batchMaxEvents());
            } else {
                out.printf(Locale.ROOT, "populator benchmark: %d filer events over %d filers (%s), a warm-up and %d rounds, "
                                + "batches of up to %d events, shard.bits 4%n",
                        expected, options.filers(), workload.perFiler(), options.rounds(), options.batchMaxEvents());
            }
            out.flush();
            if (options.filers() > 1) {
                return runSeveral(cluster, options, workload, expected, out);
            }
            double bestRaw = 0;
            double bestPopulator = 0;
            boolean exact = true;
            for (int round = 0; round <= options.rounds(); round++) {
                RawResult raw = raw(cluster, expected, round);
                Result populator = populator(cluster, options, round, workload, Path.ONE_STREAM);
                if (round == 0) {
                    // Warm-up: both paths once through the JIT before anything is measured.
                    exact &= populator.published() == expected;
                    continue;
                }
                exact &= populator.published() == expected;
                bestRaw = Math.max(bestRaw, raw.rate());
                bestPopulator = Math.max(bestPopulator, populator.rate());
                printRound(out, "round " + round + ":", raw, populator, expected);
            }
            out.printf(Locale.ROOT, "best: raw %,.0f events/s; populator %,.0f events/s; ratio %.2f%s%n", bestRaw, bestPopulator,
                    bestPopulator / bestRaw, exact ? "" : "; PUBLISHED COUNT MISMATCH");
            out.flush();
            return exact;
        }
    }

    /**
     * How the populator reads a cluster of several filers: one aggregated stream of the first filer (the one-filer
     * path, on the same events); each filer's own log caught up from the log files, which on a shared store return
     * every peer's events too; or each filer's own log tailed from memory, its own events once (a live tail).
     */
    enum Path {
        ONE_STREAM("one stream"), CATCH_UP("catch-up"), LIVE_TAIL("live tail");

        final String label;

        Path(String label) {
            this.label = label;
        }
    }

    /** The three paths side by side in each round, each against its own raw rate and CPU per event. */
    private static boolean runSeveral(LocalCluster cluster, Options options, Workload workload, long expected,
                                      PrintWriter out) throws Exception {
        Map<Path, double[]> best = new java.util.EnumMap<>(Path.class);
        Map<Path, Double> cpuPerEvent = new java.util.EnumMap<>(Path.class);
        boolean exact = true;
        for (int round = 0; round <= options.rounds(); round++) {
            for (Path path : Path.values()) {
                // A live tail: each filer holds all its events in memory and serves its own, once.
                cluster.emulator().store().setMetaLogMemoryWindow(path == Path.LIVE_TAIL ? (int) expected + 1_000
                        : FilerStore.DEFAULT_META_LOG_MEMORY_WINDOW);
                RawResult raw = path == Path.ONE_STREAM ? raw(cluster, expected, round)
                        : rawLocal(workload, round, path);
                Result populator = populator(cluster, options, round, workload, path);
                exact &= populator.published() == expected;
                if (round == 0) {
                    continue;
                }
                double[] b = best.computeIfAbsent(path, p -> new double[2]);
                b[0] = Math.max(b[0], raw.rate());
                b[1] = Math.max(b[1], populator.rate());
                double perEvent = populator.cpu().values().stream().mapToDouble(Double::doubleValue).sum()
                        / Math.max(1, populator.measuredEvents());
                cpuPerEvent.merge(path, perEvent, Math::min);
                printRound(out, "round " + round + ", " + path.label + ":", raw, populator, expected);
            }
        }
        cluster.emulator().store().setMetaLogMemoryWindow(FilerStore.DEFAULT_META_LOG_MEMORY_WINDOW);
        double oneStream = cpuPerEvent.getOrDefault(Path.ONE_STREAM, Double.NaN);
        for (Path path : Path.values()) {
            double[] b = best.getOrDefault(path, new double[] {Double.NaN, Double.NaN});
            out.printf(Locale.ROOT, "best, %s: raw %,.0f events/s; populator %,.0f events/s; ratio %.2f; least CPU "
                            + "%.1f µs per event (%.2f × one stream)%n", path.label, b[0], b[1], b[1] / b[0],
                    cpuPerEvent.getOrDefault(path, Double.NaN) * 1e6,
                    cpuPerEvent.getOrDefault(path, Double.NaN) / oneStream);
        }
        if (!exact) {
            out.println("PUBLISHED COUNT MISMATCH");
        }
        out.flush();
        return exact;
    }

    private static void printRound(PrintWriter out, String title, RawResult raw, Result populator, long expected) {
        out.printf(Locale.ROOT, "  %s raw %s %,.0f events/s; populator %,.0f events/s exactly-once "
                        + "(%d published%s, %d transactions, %.1f s to start%s); ratio %.2f%n"
                        + "    raw: %s%n    populator: %s%n", title, raw.source(), raw.rate(),
                populator.rate(), populator.published(), populator.published() == expected ? "" : " MISMATCH",
                populator.transactions(), populator.startSeconds(), populator.tail(),
                populator.rate() / raw.rate(),
                CpuByRole.perMillion(raw.cpu(), raw.received(), "events"), CpuByRole.perMillion(populator.cpu(),
                        populator.measuredEvents(), "events"));
        out.flush();
    }

    /** {@code received}: the distinct events the rate is over, which CPU is counted per. */
    record RawResult(String source, double rate, long received, Map<String, Double> cpu) {
    }

    /** The populator's {@code populator.filers.max.clock.skew.ms} for the run: what the merge holds events back by. */
    private static Duration maxClockSkew(Options options) {
        return Duration.ofMillis(Long.parseLong(options.settings().getOrDefault(PopulatorSettings.FILERS_MAX_CLOCK_SKEW_MS,
                "500")));
    }

    /** Every filer's own log drained at once; the rate is over the events the filers hold, not the copies delivered. */
    private static RawResult rawLocal(Workload workload, int round, Path path) throws Exception {
        CpuByRole before = CpuByRole.now();
        LocalLogsDrain.Result drained = LocalLogsDrain.drain(workload.filers(), "bench-raw-" + round);
        return new RawResult(String.format(Locale.ROOT, "SubscribeLocalMetadata on %d filers (%,d delivered%s)",
                        workload.filers().size(), drained.delivered(), path == Path.CATCH_UP
                                ? " with the catch-up's copies of peers' events" : ", each filer's own once"),
                workload.expected() / drained.seconds(), workload.expected(), CpuByRole.now().since(before));
    }

    private static RawResult raw(LocalCluster cluster, long expected, int round) throws InterruptedException {
        try (FilerClient filer = FilerClient.connect(cluster.emulator().filerAddress(), GrpcTls.PLAINTEXT,
                Duration.ofSeconds(30));
             MetadataSubscription subscription = filer.subscribe(SubscriptionOptions.from("bench-raw-" + round,
                     "/buckets/", 0))) {
            CpuByRole before = CpuByRole.now();
            long start = System.nanoTime();
            long received = 0;
            while (received < expected && subscription.poll(Duration.ofSeconds(10)) != null) {
                received++;
            }
            double rate = received / ((System.nanoTime() - start) / 1e9);
            return new RawResult("SubscribeMetadata", rate, received, CpuByRole.now().since(before));
        }
    }

    /** {@code cpu}: CPU seconds by role over the {@code measuredEvents} the rate was taken over. */
    record Result(double rate, long published, long transactions, double startSeconds, long measuredEvents,
                  Map<String, Double> cpu, String tail) {
    }

    /** Settings for a populator of its own: fresh topics and a fresh ZooKeeper chroot, so nothing is resumed. */
    static Map<String, String> freshPopulator(LocalCluster cluster, int round) {
        return freshPopulator(cluster, round, cluster.emulator().filerCount() > 1);
    }

    /** ... tailing each filer's own log when {@code eachFiler}, else the first filer's aggregated stream. */
    static Map<String, String> freshPopulator(LocalCluster cluster, int round, boolean eachFiler) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "kafka.bootstrap.servers", cluster.kafkaBootstrapServers(),
                "zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", "/tidemark-bench-" + round + "-" + System.nanoTime(),
                "filer.address", cluster.emulator().filerAddress(),
                "topic.prefix", "bench" + round + "-" + System.nanoTime() + "."));
        if (eachFiler) {
            // The populator finds the filers at the master and tails each one's own meta-log.
            settings.put("filer.master.address", cluster.masterAddress());
        }
        return settings;
    }

    /**
     * Times the populator from its first committed batch to the batch holding the filer's last event, so the one-off
     * start (topic creation, fencing, enumeration) is reported apart from the steady rate. With several filers, to the
     * batch holding the last event stamped more than the merge's skew margin before the last: the events after it wait
     * until the filers have been quiet for populator.filers.hold.max.ms (a log that ends, which a live cluster's does
     * not), and that wait is reported apart as the tail.
     */
    private static Result populator(LocalCluster cluster, Options options, int round, Workload workload, Path path)
            throws Exception {
        long lastTs = workload.lastTsNs();
        // One stream is in order: nothing is held for a margin at its end.
        long steadyUntil = path == Path.ONE_STREAM ? lastTs : workload.steadyUntilTsNs();
        Map<String, String> settings = freshPopulator(cluster, round, path != Path.ONE_STREAM);
        settings.put("populator.batch.max.events", String.valueOf(options.batchMaxEvents()));
        // Subscribe from the filer's first event: the whole log is the workload.
        settings.put("populator.cold-start.overlap.ms", String.valueOf(Duration.ofDays(3650).toMillis()));
        settings.putAll(options.settings());
        TidemarkConfig config = new TidemarkConfig(settings);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        long began = System.nanoTime();
        try (PopulatorService service = new PopulatorService(config, Clock.systemUTC(), meters)) {
            service.start();
            PopulatorMetrics metrics = service.metrics();
            while (metrics.published() == 0) {
                Thread.sleep(1);
            }
            CpuByRole before = CpuByRole.now();
            long start = System.nanoTime();
            long first = metrics.published();
            while (metrics.lastPublishedTsNs() < steadyUntil) {
                Thread.sleep(1);
            }
            long end = System.nanoTime();
            long measured = metrics.published() - first;
            Map<String, Double> cpu = CpuByRole.now().since(before);
            while (metrics.lastPublishedTsNs() < lastTs) {
                Thread.sleep(1);
            }
            long last = System.nanoTime();
            boolean steady = measured > 0;
            if (!steady) {
                // Too few events for a steady part (all came in the first batch, or within the margin): the whole run.
                end = last;
                measured = metrics.published() - first;
                cpu = CpuByRole.now().since(before);
            }
            long transactions = (long) meters.get("tidemark.populator.transactions").tag("outcome", "committed")
                    .counter().count();
            String tail = !steady || steadyUntil == lastTs ? "" : String.format(Locale.ROOT,
                    "; then the last %d held %.1f s until the filers were quiet", metrics.published() - first - measured,
                    (last - end) / 1e9);
            return new Result(measured / ((end - start) / 1e9), metrics.published(), transactions,
                    (start - began) / 1e9, measured, cpu, tail);
        }
    }
}
