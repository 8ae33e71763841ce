package io.tidemark.devtools.bench;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.objectprocessor.ObjectProcessorSettings;
import io.tidemark.objectprocessor.ObjectProcessorMetrics;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.pb.S3LifecycleProto;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.admin.Admin;

/**
 * The object processor's throughput against its ceiling, and its throttle's accuracy, on an in-process Kafka and
 * emulator. Raw: {@code LifecycleDelete} calls straight from a client, {@code concurrency} outstanding. End to end:
 * the same number of tasks read from {@code object-tasks} and carried out by the processor at the same in-flight
 * limit, with its audit records, timed from its first finished task to its last. Throttle: two processors sharing a
 * set group rate, their combined rate measured over the steady part of the run.
 */
final class ObjectProcessorBenchmark {

    record Options(int tasks, int rounds, int concurrency, double rate, int throttleSeconds) {
    }

    private ObjectProcessorBenchmark() {
    }

    /** Returns whether every task of every round ended DONE. */
    static boolean run(Options options, PrintWriter out) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().start()) {
            out.printf(Locale.ROOT, "object-processor benchmark: %d deletes per round, %d in flight, a warm-up and %d "
                    + "rounds; then the throttle at %.0f deletes/s for %d s%n", options.tasks(), options.concurrency(),
                    options.rounds(), options.rate(), options.throttleSeconds());
            out.flush();
            boolean allDone = true;
            double bestRaw = 0;
            double bestEndToEnd = 0;
            for (int round = 0; round <= options.rounds(); round++) {
                double raw = raw(cluster, "raw" + round, options);
                Result e2e = endToEnd(cluster, "e2e" + round, options.tasks(), options.concurrency(),
                        Double.POSITIVE_INFINITY, 1);
                allDone &= e2e.done() == options.tasks();
                if (round == 0) {
                    continue;
                }
                bestRaw = Math.max(bestRaw, raw);
                bestEndToEnd = Math.max(bestEndToEnd, e2e.rate());
                out.printf(Locale.ROOT, "  round %d: raw LifecycleDelete %,.0f deletes/s; object-tasks -> processor "
                        + "%,.0f deletes/s (%d DONE); ratio %.2f%n", round, raw, e2e.rate(), e2e.done(), e2e.rate() / raw);
                out.flush();
            }
            out.printf(Locale.ROOT, "best: raw %,.0f deletes/s; end to end %,.0f deletes/s; ratio %.2f%n", bestRaw,
                    bestEndToEnd, bestEndToEnd / bestRaw);
            int throttled = (int) Math.round(options.rate() * options.throttleSeconds());
            Result limited = endToEnd(cluster, "throttle", throttled, options.concurrency(), options.rate(), 2);
            allDone &= limited.done() == throttled;
            out.printf(Locale.ROOT, "throttle: set %.0f deletes/s for the group, two instances: measured %.1f "
                    + "deletes/s (%+.1f %%) over %d deletes%n", options.rate(), limited.rate(),
                    (limited.rate() / options.rate() - 1) * 100, limited.done());
            out.flush();
            return allDone;
        }
    }

    private static double raw(LocalCluster cluster, String bucket, Options options) throws Exception {
        List<LifecycleDeleteRequest> requests = new ArrayList<>();
        for (String key : objects(cluster.emulator().s3(), bucket, options.tasks())) {
            EntryIdentity id = LifecycleDeleteHandler.identity(cluster.emulator().s3().latest(bucket, key)
                    .orElseThrow().entry());
            requests.add(LifecycleDeleteRequest.newBuilder().setBucket(bucket).setObjectPath(key)
                    .setActionKind(S3LifecycleProto.ActionKind.EXPIRATION_DAYS)
                    .setRuleHash(ByteString.copyFrom(new byte[8]))
                    .setExpectedIdentity(S3LifecycleProto.EntryIdentity.newBuilder().setMtimeNs(id.mtimeNs())
                            .setSize(id.size()).setHeadFid(id.headFid())
                            .setExtendedHash(ByteString.copyFrom(id.extendedHash()))).build());
        }
        try (LifecycleDeleteClient client = LifecycleDeleteClient.connect(cluster.emulator().s3GrpcAddress(),
                GrpcTls.PLAINTEXT, Duration.ofSeconds(30))) {
            Semaphore window = new Semaphore(options.concurrency());
            AtomicLong done = new AtomicLong();
            long start = System.nanoTime();
            for (LifecycleDeleteRequest request : requests) {
                window.acquire();
                client.deleteAsync(request).whenComplete((response, error) -> {
                    if (error == null && response.getOutcome() == LifecycleDeleteOutcome.DONE) {
                        done.incrementAndGet();
                    }
                    window.release();
                });
            }
            window.acquire(options.concurrency());
            double seconds = (System.nanoTime() - start) / 1e9;
            if (done.get() != requests.size()) {
                throw new IllegalStateException("raw: " + done.get() + " of " + requests.size() + " deletes were DONE");
            }
            return requests.size() / seconds;
        }
    }

    record Result(double rate, long done) {
    }

    /** How long the processors may finish nothing before the bench gives up rather than spin for ever. */
    private static final long STALL_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(60);

    private static void awaitDone(List<ObjectProcessorService> services, long target) throws InterruptedException {
        long last = done(services);
        long movedAt = System.nanoTime();
        while (last < target) {
            Thread.sleep(1);
            long now = done(services);
            if (now != last) {
                last = now;
                movedAt = System.nanoTime();
            } else if (System.nanoTime() - movedAt > STALL_NANOS) {
                throw new IllegalStateException("the processors finished no task for 60 s (" + last + " of "
                        + target + "): see their log");
            }
        }
    }

    /**
     * Publishes one task per object, starts {@code instances} processors, and times their steady rate.
     *
     * @param rate the group's deletes per second; {@link Double#POSITIVE_INFINITY} for no limit
     */
    private static Result endToEnd(LocalCluster cluster, String bucket, int count, int concurrency, double rate,
                                   int instances) throws Exception {
        S3Gateway s3 = cluster.emulator().s3();
        List<String> keys = objects(s3, bucket, count);
        Map<String, String> settings = new HashMap<>(Map.of(
                "kafka.bootstrap.servers", cluster.kafkaBootstrapServers(),
                "zookeeper.connect", cluster.zookeeperConnect(),
                "s3.grpc.address", cluster.emulator().s3GrpcAddress(),
                "filer.address", cluster.emulator().filerAddress(),
                "topic.prefix", "bench-" + bucket + "-" + System.nanoTime() + ".",
                "management.port", "0",
                "object-processor.max.in.flight", String.valueOf(concurrency),
                "object-processor.deletes.per.second", Double.isInfinite(rate) ? ObjectProcessorSettings.UNLIMITED
                        : String.valueOf(rate),
                "object-processor.status.interval.ms", "600000"));
        TidemarkConfig config = new TidemarkConfig(settings);
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) -1).ensure(topics.all());
        }
        List<ObjectProcessorService> services = new ArrayList<>();
        try {
            for (int i = 0; i < instances; i++) {
                ObjectProcessorService service = new ObjectProcessorService(config, Clock.systemUTC(),
                        new SimpleMeterRegistry());
                service.start();
                services.add(service);
            }
            // Tasks are published once the group has settled, so no rebalance pause falls inside the measurement.
            while (services.stream().mapToInt(x -> x.metrics().assignedPartitions()).sum() != topics.objectTasks()
                    .partitions() || services.stream().anyMatch(x -> x.metrics().assignedPartitions() == 0)) {
                Thread.sleep(10);
            }
            ExpirationTasks.publish(config, topics, s3, bucket, keys);
            // The steady window: from the tenth finished task to the last.
            long firstCount = Math.min(10, count - 1);
            awaitDone(services, firstCount);
            long start = System.nanoTime();
            long atStart = done(services);
            awaitDone(services, count);
            double seconds = (System.nanoTime() - start) / 1e9;
            return new Result((done(services) - atStart) / seconds, done(services));
        } finally {
            for (ObjectProcessorService service : services) {
                service.close();
            }
        }
    }

    private static long done(List<ObjectProcessorService> services) {
        long done = 0;
        for (ObjectProcessorService service : services) {
            ObjectProcessorMetrics m = service.metrics();
            done += m.finishedCount("DONE");
        }
        return done;
    }

    private static List<String> objects(S3Gateway s3, String bucket, int count) {
        s3.createBucket(bucket, false);
        List<String> keys = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            String key = String.format(Locale.ROOT, "o%08d", i);
            s3.putObject(bucket, key, 1024, Map.of(), Map.of());
            keys.add(key);
        }
        return keys;
    }
}
