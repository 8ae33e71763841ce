package io.tidemark.devtools.bench;

import com.google.protobuf.ByteString;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.replay.ReplayStreamsMetrics;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Replay-streams against its ceiling, on an in-process Kafka: N object-written records are put on the meta-log;
 * a raw consumer reads them (the baseline), then replay-streams arms a timer for each under exactly-once
 * processing, then, when the day passes, fires them all. Reported: events/s armed vs the raw read rate, timers
 * fired/s with N pending, and the due-to-emitted lag.
 */
final class ReplayBenchmark {

    /** @param rate due objects per second for a steady run; 0 for a burst of all of them at once */
    record Options(int events, int daySeconds, int rate, Map<String, String> settings) {
    }

    private static final String EXPIRE_1_DAY = "<LifecycleConfiguration><Rule><ID>bench</ID><Filter></Filter>"
            + "<Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";

    private ReplayBenchmark() {
    }

    static boolean run(Options options, PrintWriter out) throws Exception {
        Path state = Files.createTempDirectory("tidemark-replay-bench");
        try (LocalCluster cluster = LocalCluster.builder().emulator(false).start()) {
            Map<String, String> settings = new HashMap<>(Map.of(
                    "kafka.bootstrap.servers", cluster.kafkaBootstrapServers(),
                    // The service reports its pending timers there: left to the default, its client would knock on
                    // a ZooKeeper that is not there for the whole run.
                    "zookeeper.connect", cluster.zookeeperConnect(),
                    "topic.prefix", "bench-replay-" + System.nanoTime() + ".",
                    "lifecycle.day.seconds", String.valueOf(options.daySeconds()),
                    "lifecycle.due.policy", "exact",
                    "management.port", "0",
                    "replay-streams.state.dir", state.toString(),
                    "replay-streams.punctuate.interval.ms", "100",
                    "replay-streams.max.fired.per.tick", "20000",
                    "replay-streams.status.interval.ms", "600000"));
            settings.put("lifecycle.test.mode", "true");
            settings.putAll(options.settings());
            TidemarkConfig config = new TidemarkConfig(settings);
            TopicRegistry topics = TopicRegistry.from(config);
            try (Admin admin = Admin.create(config.adminProperties())) {
                new TopicAdmin(admin, (short) -1).ensure(topics.all());
            }
            Instant mtime = Instant.now();
            publish(config, topics, options.events(), mtime, options.rate());
            out.printf(Locale.ROOT, "replay-streams benchmark: %d object-written events on %d partitions, exactly-once; "
                    + "%s, %d s after the writes%n", options.events(), topics.metaLog().partitions(),
                    options.rate() > 0 ? "timers fall due at " + options.rate() + "/s" : "every timer due at once",
                    options.daySeconds());
            out.flush();
            double raw = rawRead(config, topics, options.events());
            ReplayStreamsMetrics metrics;
            try (ReplayStreamsService service = new ReplayStreamsService(config, Clock.systemUTC(),
                    new SimpleMeterRegistry())) {
                service.start();
                metrics = service.metrics();
                long began = System.nanoTime();
                while (armed(metrics) == 0) {
                    Thread.sleep(1);
                }
                long firstArmed = System.nanoTime();
                while (armed(metrics) < options.events()) {
                    Thread.sleep(1);
                }
                double armRate = options.events() / ((System.nanoTime() - firstArmed) / 1e9);
                out.printf(Locale.ROOT, "  arming: raw consumer %,.0f events/s; replay-streams %,.0f events/s under EOS "
                        + "(%.1f s to start); ratio %.2f%n", raw, armRate, (firstArmed - began) / 1e9, armRate / raw);
                out.printf(Locale.ROOT, "  heap with %d timers pending: %s%n", options.events(), heapAfterGc());
                out.flush();
                Instant due = mtime.plusSeconds(options.daySeconds());
                if (Instant.now().isAfter(due)) {
                    out.println("  firing: not measured, arming took longer than the day (raise --day-seconds)");
                    return false;
                }
                if (options.rate() > 0) {
                    return steady(config, topics, options, out);
                }
                while (fired(metrics) == 0) {
                    Thread.sleep(1);
                }
                long firstFired = System.nanoTime();
                while (fired(metrics) < options.events()) {
                    Thread.sleep(1);
                }
                double fireRate = options.events() / ((System.nanoTime() - firstFired) / 1e9);
                out.printf(Locale.ROOT, "  firing: %,.0f timers/s with %d pending at the start; latest emission %.2f s "
                        + "after its due instant%n", fireRate, options.events(), metrics.maxLateSeconds());
                out.flush();
            }
            return fired(metrics) == options.events();
        }
    }

    /**
     * Reads the tasks as the object processor would (read-committed) while they fall due, and reports how long after
     * its due instant each became visible: the punctuation interval, the firing and the transaction's commit.
     */
    private static boolean steady(TidemarkConfig config, TopicRegistry topics, Options options, PrintWriter out) {
        Map<String, Object> properties = config.consumerProperties();
        properties.put("group.id", "bench-steady-" + System.nanoTime());
        properties.put("auto.offset.reset", "earliest");
        properties.put("isolation.level", "read_committed");
        long[] lateMillis = new long[options.events()];
        int seen = 0;
        long deadline = System.nanoTime() + ((long) options.daySeconds() + options.events() / options.rate() + 60)
                * 1_000_000_000L;
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topics.objectTasks().name()));
            while (seen < lateMillis.length && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                long now = System.currentTimeMillis();
                for (var r : records) {
                    ObjectTask task = topics.objectTasks().valueSerde().deserializer().deserialize(r.topic(), r.value());
                    if (seen < lateMillis.length) {
                        lateMillis[seen++] = now - task.details().dueAt().toEpochMilli();
                    }
                }
            }
        }
        if (seen == 0) {
            out.println("  steady: no task seen");
            return false;
        }
        Latencies late = Latencies.of(java.util.Arrays.stream(lateMillis, 0, seen).mapToDouble(ms -> ms / 1e3)
                .toArray());
        out.printf(Locale.ROOT, "  steady: %d of %d tasks at %d due/s; due -> task visible p50 %.2f s, p99 %.2f s, "
                        + "max %.2f s%n", seen, options.events(), options.rate(), late.percentile(0.50),
                late.percentile(0.99), late.max());
        out.flush();
        return seen == options.events();
    }

    /**
     * The heap in use after a full collection, against the maximum: timers belong in RocksDB, so this should not
     * grow with their number. The broker shares this JVM, so it counts too.
     */
    private static String heapAfterGc() {
        System.gc();
        java.lang.management.MemoryUsage heap = java.lang.management.ManagementFactory.getMemoryMXBean()
                .getHeapMemoryUsage();
        return String.format(Locale.ROOT, "%d MB used after a full GC, %d MB max (in-process broker included)",
                heap.getUsed() >> 20, heap.getMax() >> 20);
    }

    private static long armed(ReplayStreamsMetrics metrics) {
        return metrics.total("tidemark.replay.timers.armed", "expiration_days");
    }

    private static long fired(ReplayStreamsMetrics metrics) {
        return metrics.total("tidemark.replay.timers.fired", "expiration_days");
    }

    /** With a rate, event i is written {@code i / rate} seconds after {@code first}, so its timer falls due then. */
    private static void publish(TidemarkConfig config, TopicRegistry topics, int events, Instant first, int rate)
            throws Exception {
        ShardFunction shards = ShardFunction.withBits(config.shardBits());
        Map<String, Object> properties = config.producerProperties();
        properties.put("max.in.flight.requests.per.connection", 1);
        properties.put("linger.ms", 20);
        properties.put("batch.size", 256 * 1024);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(topics.bucketConfigs().record(0, "bench", new BucketConfig("bench", "Off", false, EXPIRE_1_DAY,
                    "bench", null, null))).get();
            for (int i = 0; i < events; i++) {
                String key = String.format(Locale.ROOT, "o%09d", i);
                Instant mtime = rate > 0 ? first.plusNanos(i * (1_000_000_000L / rate)) : first;
                Entry entry = Entry.newBuilder().setName(key)
                        .setAttributes(FuseAttributes.newBuilder().setMtime(mtime.getEpochSecond())
                                .setMtimeNs(mtime.getNano()).setFileSize(1024))
                        .addChunks(FileChunk.newBuilder().setFileId("7," + Integer.toHexString(i) + "0a0b0c0d"))
                        .putExtended("Seaweed-X-Amz-ETag", ByteString.copyFromUtf8("e" + i)).build();
                MetaLogRecord record = MetaLogRecord.newBuilder().setTsNs(mtime.toEpochMilli() * 1_000_000L + i)
                        .setDirectory("/buckets/bench").setEvent(EventNotification.newBuilder().setNewEntry(entry))
                        .setBucket("bench").setLogicalKey(key).setKind(EventKind.OBJECT_WRITTEN)
                        .setShard(shards.shardOf("bench", key)).build();
                String recordKey = ShardPartitioner.key("bench", key);
                producer.send(topics.metaLog().record(record.getShard(), recordKey, record));
            }
            producer.flush();
        }
    }

    /** The baseline: one plain consumer reading the whole meta-log. */
    private static double rawRead(TidemarkConfig config, TopicRegistry topics, int events) {
        Map<String, Object> properties = config.consumerProperties();
        properties.put("group.id", "bench-raw-" + System.nanoTime());
        properties.put("auto.offset.reset", "earliest");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topics.metaLog().name()));
            long read = 0;
            long start = 0;
            while (read < events) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                if (start == 0 && !records.isEmpty()) {
                    start = System.nanoTime();
                }
                for (var r : records) {
                    topics.metaLog().valueSerde().deserializer().deserialize(topics.metaLog().name(), r.value());
                    read++;
                }
            }
            return read / ((System.nanoTime() - start) / 1e9);
        }
    }
}
