package io.tidemark.devtools.bench;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.populator.PopulatorMetrics;
import io.tidemark.populator.PopulatorService;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The populator's cold start on a cluster of many lifecycle buckets, against the raw rate of listing the same
 * buckets from the filer in the same run. Each round is a populator with fresh topics and a fresh ZooKeeper chroot,
 * so it enumerates everything; the rate is taken from its first committed chunk to its last, and a first round
 * warms the JIT up. Every bucket's rules differ (a prefix of its own), as they would on a real cluster.
 */
final class ColdStartBenchmark {

    record Options(int buckets, int rounds, Map<String, String> settings) {
    }

    private ColdStartBenchmark() {
    }

    /** Returns whether every round registered exactly the buckets created. */
    static boolean run(Options options, PrintWriter out) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().start()) {
            S3Gateway s3 = cluster.emulator().s3();
            for (int b = 0; b < options.buckets(); b++) {
                String name = String.format("bucket-%06d", b);
                s3.createBucket(name, false);
                s3.putLifecycle(name, rules(b));
            }
            out.printf(Locale.ROOT, "populator cold start benchmark: %d lifecycle buckets, a warm-up and %d rounds, "
                    + "chunks of %s buckets%n", options.buckets(), options.rounds(),
                    options.settings().getOrDefault("populator.cold-start.chunk.buckets", "the default"));
            out.flush();
            double bestRaw = 0;
            double bestCold = 0;
            boolean exact = true;
            for (int round = 0; round <= options.rounds(); round++) {
                double raw = rawListing(cluster, options.buckets());
                Round cold = coldStart(cluster, options, round);
                exact &= cold.registered() == options.buckets();
                if (round == 0) {
                    continue;
                }
                bestRaw = Math.max(bestRaw, raw);
                bestCold = Math.max(bestCold, cold.rate());
                out.printf(Locale.ROOT, "  round %d: raw ListEntries %,.0f buckets/s; cold start %,.0f buckets/s "
                                + "(%d registered%s, %.1f s from start to the last chunk); ratio %.2f%n", round, raw,
                        cold.rate(), cold.registered(), cold.registered() == options.buckets() ? "" : " MISMATCH",
                        cold.totalSeconds(), cold.rate() / raw);
                out.flush();
            }
            out.printf(Locale.ROOT, "best: raw %,.0f buckets/s; cold start %,.0f buckets/s; ratio %.2f%s%n", bestRaw,
                    bestCold, bestCold / bestRaw, exact ? "" : "; REGISTERED COUNT MISMATCH");
            out.flush();
            return exact;
        }
    }

    private static String rules(int bucket) {
        return "<LifecycleConfiguration><Rule><ID>expire-" + bucket + "</ID><Filter><Prefix>logs-" + bucket
                + "/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>" + (1 + bucket % 90)
                + "</Days></Expiration></Rule><Rule><ID>uploads</ID><Filter><Prefix></Prefix></Filter>"
                + "<Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>7"
                + "</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>";
    }

    private static double rawListing(LocalCluster cluster, int expected) {
        try (FilerClient filer = FilerClient.connect(cluster.emulator().filerAddress(), GrpcTls.PLAINTEXT,
                Duration.ofSeconds(30))) {
            long start = System.nanoTime();
            long buckets = 0;
            for (Entry entry : filer.listAll("/buckets", "", 1024)) {
                if (entry.getIsDirectory()) {
                    buckets++;
                }
            }
            if (buckets != expected) {
                throw new IllegalStateException("listed " + buckets + " buckets, expected " + expected);
            }
            return buckets / ((System.nanoTime() - start) / 1e9);
        }
    }

    record Round(double rate, long registered, double totalSeconds) {
    }

    private static Round coldStart(LocalCluster cluster, Options options, int round) throws Exception {
        Map<String, String> settings = PopulatorBenchmark.freshPopulator(cluster, round);
        settings.putAll(options.settings());
        TidemarkConfig config = new TidemarkConfig(settings);
        long began = System.nanoTime();
        try (PopulatorService service = new PopulatorService(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            service.start();
            PopulatorMetrics metrics = service.metrics();
            while (metrics.coldStartBuckets() == 0) {
                Thread.sleep(1);
            }
            long start = System.nanoTime();
            long first = metrics.coldStartBuckets();
            while (metrics.coldStartBuckets() < options.buckets()) {
                Thread.sleep(1);
            }
            long end = System.nanoTime();
            long registered;
            try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
                registered = new LifecycleBuckets(zk.client()).buckets().size();
            }
            return new Round((metrics.coldStartBuckets() - first) / ((end - start) / 1e9), registered,
                    (end - began) / 1e9);
        }
    }
}
