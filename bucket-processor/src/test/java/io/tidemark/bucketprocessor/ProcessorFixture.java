package io.tidemark.bucketprocessor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** One bucket-processor deployment for a test: its own emulator, topic prefix and chroot on the shared cluster. */
final class ProcessorFixture implements AutoCloseable {

    final FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start();
    final Map<String, String> settings = new LinkedHashMap<>();
    final TidemarkConfig config;
    final TopicRegistry topics;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ZooKeeperConnection zookeeper;
    private final List<AutoCloseable> owned = new ArrayList<>();

    ProcessorFixture(LocalCluster cluster, ClusterNamespace ns, String name, Map<String, String> extra) {
        settings.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put("zookeeper.chroot", ns.zookeeperChroot() + "-" + name);
        settings.put("filer.address", emulator.filerAddress());
        settings.put("s3.grpc.address", emulator.s3GrpcAddress());
        settings.put("topic.prefix", ns.topicPrefix() + name + ".");
        settings.put("shard.bits", "2");
        settings.put("management.host", "127.0.0.1");
        settings.put("management.port", "0");
        settings.put("bucket-processor.status.interval.ms", "1000");
        settings.put("bucket-processor.retry.backoff.max.ms", "500");
        settings.put("kafka.consumer.session.timeout.ms", "6000");
        settings.put("kafka.consumer.heartbeat.interval.ms", "500");
        // A killed processor's open transaction holds back what read-committed consumers see until it times out:
        // 10 s instead of the default minute keeps the kill -9 test from waiting out a whole minute by chance.
        settings.put("kafka.producer.transaction.timeout.ms", "10000");
        settings.putAll(extra);
        config = new TidemarkConfig(settings);
        topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) -1).ensure(List.of(topics.bucketTasks(), topics.objectTasks(),
                    topics.rearm()));
        }
        Map<String, Object> producerProperties = config.producerProperties();
        producerProperties.put("max.in.flight.requests.per.connection", 1);
        producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer());
        zookeeper = ZooKeeperConnection.start(config);
    }

    BucketProcessorService startProcessor() {
        return startProcessor(Clock.systemUTC());
    }

    /** A processor on a host with the given clock (the filer's stays the system's). */
    BucketProcessorService startProcessor(Clock clock) {
        BucketProcessorService service = new BucketProcessorService(config, clock, new SimpleMeterRegistry());
        owned.add(service);
        service.start();
        return service;
    }

    String[] settingsArguments() {
        return settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }

    void publish(BucketTask task) throws Exception {
        producer.send(topics.bucketTasks().record(task.target().bucket(), task)).get();
    }

    void publishRaw(String bucket, byte[] value) throws Exception {
        producer.send(new ProducerRecord<>(topics.bucketTasks().name(), bucket.getBytes(), value)).get();
    }

    static BucketTask steady(String bucket, String scanId) {
        return new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                new BucketTask.Details(scanId, BucketTask.Mode.steady, "", null));
    }

    Optional<WalkState> walk(String bucket) throws Exception {
        return new WalkStates(zookeeper.client()).read(bucket);
    }

    boolean finished(String bucket, String scanId) throws Exception {
        return walk(bucket).filter(s -> s.scanId().equals(scanId) && s.finishedAt() != null).isPresent();
    }

    /**
     * The committed tasks, once there are at least {@code expected}: a walk's state says "finished" once its last
     * transaction is committed, but a read-committed consumer sees that transaction only once the coordinator has
     * written its markers, which it does after answering the commit.
     */
    List<ObjectTask> awaitCommittedTasks(int expected) {
        List<List<ObjectTask>> read = new ArrayList<>();
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> {
            read.add(0, committedTasks());
            return read.get(0).size() >= expected;
        });
        return read.get(0);
    }

    List<ObjectTask> committedTasks() {
        return TopicReader.committedValues(config.consumerProperties(), topics.objectTasks(), Duration.ofSeconds(30));
    }

    /** The committed re-arm records, by record key ({@code bucket/logicalKey}), in the order of each partition. */
    Map<String, List<MetaLogRecord>> committedRearms() {
        Map<String, List<MetaLogRecord>> byKey = new LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                KafkaClients.committedReader(config.consumerProperties()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicReader.readToEnd(consumer, topics.rearm().name(), topics.rearm().partitions(), Duration.ofSeconds(30),
                    r -> byKey.computeIfAbsent(new String(r.key(), StandardCharsets.UTF_8), k -> new ArrayList<>())
                            .add(topics.rearm().valueSerde().deserializer().deserialize(r.topic(), r.value())));
        }
        return byKey;
    }

    List<BucketTask> committedBucketTasks() {
        return TopicReader.committedValues(config.consumerProperties(), topics.bucketTasks(), Duration.ofSeconds(30));
    }

    @Override
    public void close() {
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        producer.close();
        zookeeper.close();
        emulator.close();
    }
}
