package io.tidemark.devtools.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.devtools.bench.CpuByRole;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.populator.PopulatorMetrics;
import io.tidemark.populator.PopulatorService;
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
 */
final class PopulatorBenchmark {

    record Options(int events, int rounds, int batchMaxEvents, Map<String, String> settings) {
    }

    private PopulatorBenchmark() {
    }

    /** Returns whether every round published exactly the filer's events. */
    static boolean run(Options options, PrintWriter out) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().start()) {
            S3Gateway s3 = cluster.emulator().s3();
            s3.createBucket("bench", false);
            for (int i = 0; i < options.events() - 1; i++) {
                s3.putObject("bench", String.format("o%08d", i), 1024, Map.of(), Map.of());
            }
            List<SubscribeMetadataResponse> all = cluster.emulator().store().events(0);
            long expected = all.stream().filter(e -> e.getDirectory().startsWith("/buckets")).count();
            long lastTs = all.get(all.size() - 1).getTsNs();
            out.printf(Locale.ROOT, "populator benchmark: %d filer events, a warm-up and %d rounds, batches of up to %d events, "
                            + "shard.bits 4%n",
                    expected, options.rounds(), options.batchMaxEvents());
            out.flush();
            double bestRaw = 0;
            double bestPopulator = 0;
            boolean exact = true;
            for (int round = 0; round <= options.rounds(); round++) {
                RawResult raw = raw(cluster, expected, round);
                Result populator = populator(cluster, options, round, lastTs);
                if (round == 0) {
                    // Warm-up: both paths once through the JIT before anything is measured.
                    exact &= populator.published() == expected;
                    continue;
                }
                exact &= populator.published() == expected;
                bestRaw = Math.max(bestRaw, raw.rate());
                bestPopulator = Math.max(bestPopulator, populator.rate());
                out.printf(Locale.ROOT, "  round %d: raw SubscribeMetadata %,.0f events/s; populator %,.0f events/s exactly-once "
                                + "(%d published%s, %d transactions, %.1f s to start); ratio %.2f%n"
                        + "    raw: %s%n    populator: %s%n", round, raw.rate(),
                        populator.rate(), populator.published(), populator.published() == expected ? "" : " MISMATCH",
                        populator.transactions(), populator.startSeconds(), populator.rate() / raw.rate(),
                        CpuByRole.perMillion(raw.cpu(), raw.received(), "events"), CpuByRole.perMillion(populator.cpu(),
                                populator.measuredEvents(), "events"));
                out.flush();
            }
            out.printf(Locale.ROOT, "best: raw %,.0f events/s; populator %,.0f events/s; ratio %.2f%s%n", bestRaw, bestPopulator,
                    bestPopulator / bestRaw, exact ? "" : "; PUBLISHED COUNT MISMATCH");
            out.flush();
            return exact;
        }
    }

    record RawResult(double rate, long received, Map<String, Double> cpu) {
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
            return new RawResult(rate, received, CpuByRole.now().since(before));
        }
    }

    /** {@code cpu}: CPU seconds by role over the {@code measuredEvents} the rate was taken over. */
    record Result(double rate, long published, long transactions, double startSeconds, long measuredEvents,
                  Map<String, Double> cpu) {
    }

    /** Settings for a populator of its own: fresh topics and a fresh ZooKeeper chroot, so nothing is resumed. */
    static Map<String, String> freshPopulator(LocalCluster cluster, int round) {
        return new HashMap<>(Map.of(
                "kafka.bootstrap.servers", cluster.kafkaBootstrapServers(),
                "zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", "/tidemark-bench-" + round + "-" + System.nanoTime(),
                "filer.address", cluster.emulator().filerAddress(),
                "topic.prefix", "bench" + round + "-" + System.nanoTime() + "."));
    }

    /**
     * Times the populator from its first committed batch to the batch holding the filer's last event, so the one-off
     * start (topic creation, fencing, enumeration) is reported apart from the steady rate.
     */
    private static Result populator(LocalCluster cluster, Options options, int round, long lastTs) throws Exception {
        Map<String, String> settings = freshPopulator(cluster, round);
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
            while (metrics.lastPublishedTsNs() < lastTs) {
                Thread.sleep(1);
            }
            long end = System.nanoTime();
            Map<String, Double> cpu = CpuByRole.now().since(before);
            long transactions = (long) meters.get("tidemark.populator.transactions").tag("outcome", "committed")
                    .counter().count();
            return new Result((metrics.published() - first) / ((end - start) / 1e9), metrics.published(), transactions,
                    (start - began) / 1e9, metrics.published() - first, cpu);
        }
    }
}
