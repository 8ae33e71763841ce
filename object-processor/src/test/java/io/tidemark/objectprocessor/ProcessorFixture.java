package io.tidemark.objectprocessor;

import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.ObjectVersionInfo;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.messages.DeadLetter;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * One object-processor deployment for a test: its own emulator and topic prefix on the shared cluster, a producer
 * of tasks made from the emulator's live entries, and readers of what the processor committed.
 */
final class ProcessorFixture implements AutoCloseable {

    final FilerEmulator emulator;
    final Map<String, String> settings;
    final TidemarkConfig config;
    final TopicRegistry topics;
    private final Admin admin;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<AutoCloseable> owned = new ArrayList<>();

    private ProcessorFixture(FilerEmulator emulator, Map<String, String> settings) throws Exception {
        this.emulator = emulator;
        this.settings = settings;
        this.config = new TidemarkConfig(settings);
        this.topics = TopicRegistry.from(config);
        this.admin = Admin.create(config.adminProperties());
        new TopicAdmin(admin, (short) -1).ensure(List.of(topics.objectTasks(), topics.objectTasksDlq(),
                topics.lifecycleEvents(), topics.bucketTasks()));
        // One request in flight: see ObjectProcessorService.producerProperties (KAFKA-15591 on fresh topics).
        Map<String, Object> producerProperties = config.producerProperties();
        producerProperties.put("max.in.flight.requests.per.connection", 1);
        this.producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    static ProcessorFixture start(LocalCluster cluster, ClusterNamespace ns, String name, Map<String, String> extra)
            throws Exception {
        FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        // A chroot of its own: the lifecycle settings the first service records there are this test's.
        settings.put("zookeeper.chroot", ns.zookeeperChroot() + "-" + name);
        settings.put("s3.grpc.address", emulator.s3GrpcAddress());
        settings.put("filer.address", emulator.filerAddress());
        settings.put("topic.prefix", ns.topicPrefix() + name + ".");
        settings.put("shard.bits", "2");
        settings.put("management.host", "127.0.0.1");
        settings.put("management.port", "0");
        settings.put("object-processor.deletes.per.second", "unlimited");
        settings.put("object-processor.retry.backoff.initial.ms", "50");
        settings.put("object-processor.retry.backoff.max.ms", "200");
        settings.put("object-processor.transport.backoff.initial.ms", "10");
        settings.put("object-processor.transport.backoff.max.ms", "100");
        settings.put("object-processor.commit.interval.ms", "100");
        settings.put("object-processor.status.interval.ms", "1000");
        // The gateway checked at start only, while it answers: a check made later would take a failure a test
        // injects for a task's call.
        settings.put("object-processor.cluster.check.interval.ms", "600000");
        settings.put("kafka.consumer.session.timeout.ms", "6000");
        settings.put("kafka.consumer.heartbeat.interval.ms", "500");
        settings.putAll(extra);
        return new ProcessorFixture(emulator, settings);
    }

    /** The meters of the processor started last. */
    SimpleMeterRegistry meters;

    ObjectProcessorService startProcessor() {
        return startProcessor(Clock.systemUTC());
    }

    /** A processor on a host with the given clock (the filer's stays the system's). */
    ObjectProcessorService startProcessor(Clock clock) {
        meters = new SimpleMeterRegistry();
        ObjectProcessorService service = new ObjectProcessorService(config, clock, meters);
        owned.add(service);
        service.start();
        return service;
    }

    /** A meter's value in the processor started last, summed over its tags; null when it has no such meter. */
    Double meter(String name) {
        var found = meters.find(name).meters();
        if (found.isEmpty()) {
            return null;
        }
        return found.stream().flatMap(m -> java.util.stream.StreamSupport.stream(m.measure().spliterator(), false))
                .mapToDouble(io.micrometer.core.instrument.Measurement::getValue).sum();
    }

    /**
     * An abort of {@code .uploads/<uploadId>} under {@link #RULES}, the upload backdated two days so it is due. The
     * gateway checks no identity for an upload: its path names it.
     */
    ObjectTask abort(String bucket, String uploadId) {
        ensureRules(bucket);
        Instant initiated = Instant.now().minus(Duration.ofDays(2)).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        emulator.s3().backdateUpload(bucket, uploadId, initiated);
        return task(bucket, ".uploads/" + uploadId, "", "ABORT_MPU", "abort-upload", null, RULE_ID,
                ruleHash(RULES, RULE_ID), initiated);
    }

    String[] settingsArguments() {
        return settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }

    /**
     * The rules every task the fixture makes is decided under, put on a bucket when its first task is made: the
     * object processor checks each task against the bucket's rules as they are now. Everything expired since 2000
     * (so any object is due at once), noncurrent versions after a day, uploads after a day.
     */
    static final String RULE_ID = "expire-all";
    static final String RULES = "<LifecycleConfiguration><Rule><ID>" + RULE_ID + "</ID><Filter><Prefix></Prefix>"
            + "</Filter><Status>Enabled</Status><Expiration><Date>2000-01-01T00:00:00Z</Date></Expiration>"
            + "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>"
            + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation>"
            + "</AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>";

    /** The hash of a rule of {@code xml}, as the task producers write it. */
    String ruleHash(String xml, String ruleId) {
        try {
            return config.ruleReader().read(xml).rule(ruleId).orElseThrow().hash().toHex();
        } catch (io.tidemark.lifecycle.config.LifecycleConfigException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** Puts {@link #RULES} on the bucket unless it has a lifecycle configuration already. */
    void ensureRules(String bucket) {
        Entry entry = emulator.store().lookup(emulator.s3().bucketsDirectory(), bucket).orElseThrow();
        if (BucketEntryConfig.lifecycleXml(entry).isEmpty()) {
            emulator.s3().putLifecycle(bucket, RULES);
        }
    }

    /**
     * An expiration of the current version of {@code key} under {@link #RULES} (its Date action), decided on the entry
     * as it is now.
     */
    ObjectTask expiration(String bucket, String key) {
        ensureRules(bucket);
        ObjectVersionInfo latest = emulator.s3().latest(bucket, key).orElseThrow();
        return task(bucket, key, "", "EXPIRATION_DATE", "expire", LifecycleDeleteHandler.identity(latest.entry()),
                RULE_ID, ruleHash(RULES, RULE_ID), S3Entries.modTime(latest.entry()));
    }

    static ObjectTask task(String bucket, String path, String versionId, String kind, String action,
                           EntryIdentity identity, String ruleId, String ruleHash, Instant modTime) {
        return task(bucket, path, versionId, kind, action, identity, ruleId, ruleHash, modTime, null);
    }

    static ObjectTask task(String bucket, String path, String versionId, String kind, String action,
                           EntryIdentity identity, String ruleId, String ruleHash, Instant modTime,
                           Instant noncurrentSince) {
        ObjectTask.ExpectedIdentity expected = identity == null ? null : ObjectTask.ExpectedIdentity.of(identity);
        return new ObjectTask(UUID.randomUUID().toString(), action, kind, new ObjectTask.Target(bucket, path, versionId),
                new ObjectTask.Details(expected, ruleId, ruleHash, Instant.parse("2000-01-01T00:00:00Z"), "walker",
                        null, modTime, noncurrentSince));
    }

    /**
     * A deletion of noncurrent version {@code versionId} of {@code key} under the rule of {@code xml} (put on the
     * bucket), decided on the version as it is now, noncurrent for two days: {@link #age} the key first, or the
     * processor finds it demoted moments ago.
     */
    ObjectTask noncurrent(String bucket, String key, String versionId, String xml, String ruleId) {
        ObjectVersionInfo version = emulator.s3().version(bucket, key, versionId).orElseThrow();
        return task(bucket, key, versionId, "NONCURRENT_DAYS", "delete-version",
                LifecycleDeleteHandler.identity(version.entry()), ruleId, ruleHash(xml, ruleId),
                S3Entries.modTime(version.entry()), Instant.now().minus(Duration.ofDays(2)));
    }

    /** Publishes tasks keyed and partitioned like the producers of {@code object-tasks} do; returns their offsets. */
    List<Long> publish(List<ObjectTask> tasks) throws Exception {
        List<java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata>> sent = new ArrayList<>();
        for (ObjectTask t : tasks) {
            sent.add(producer.send(topics.objectTasks().record(shard(key(t)), key(t), t)));
        }
        List<Long> offsets = new ArrayList<>();
        for (var f : sent) {
            offsets.add(f.get().offset());
        }
        return offsets;
    }

    java.util.concurrent.Future<org.apache.kafka.clients.producer.RecordMetadata> publishRaw(String key, byte[] value) {
        return producer.send(new ProducerRecord<>(topics.objectTasks().name(), shard(key),
                key.getBytes(java.nio.charset.StandardCharsets.UTF_8), value));
    }

    int shard(String key) {
        return ShardPartitioner.shardOf(key, topics.objectTasks().partitions());
    }

    static String key(ObjectTask t) {
        String path = t.target().objectPath();
        return ShardPartitioner.key(t.target().bucket(), path);
    }

    List<LifecycleEvent> events() {
        return read(topics.lifecycleEvents());
    }

    /** Every parked task still in the dead-letter topic: a tombstone (replayed or purged) removes its key's record. */
    List<DeadLetter> deadLetters() {
        Map<String, DeadLetter> live = new LinkedHashMap<>();
        Map<String, Object> props = new java.util.HashMap<>(config.consumerProperties());
        props.put("isolation.level", "read_committed");
        try (org.apache.kafka.clients.consumer.KafkaConsumer<byte[], byte[]> consumer =
                     new org.apache.kafka.clients.consumer.KafkaConsumer<>(props,
                             new org.apache.kafka.common.serialization.ByteArrayDeserializer(),
                             new org.apache.kafka.common.serialization.ByteArrayDeserializer())) {
            TopicSpec<String, DeadLetter> dlq = topics.objectTasksDlq();
            TopicReader.readToEnd(consumer, dlq.name(), dlq.partitions(), Duration.ofSeconds(30), r -> {
                String key = dlq.keySerde().deserializer().deserialize(dlq.name(), r.key());
                if (r.value() == null) {
                    live.remove(key);
                } else {
                    live.put(key, dlq.valueSerde().deserializer().deserialize(dlq.name(), r.value()));
                }
            });
        }
        return List.copyOf(live.values());
    }

    /** The walks of a key the processor asked for, in the order written. */
    List<io.tidemark.messages.BucketTask> walks() {
        return read(topics.bucketTasks());
    }

    /** Per actionId, the outcomes recorded for it, in order. */
    Map<String, List<String>> outcomesByAction() {
        return events().stream().collect(Collectors.groupingBy(LifecycleEvent::actionId, LinkedHashMap::new,
                Collectors.mapping(LifecycleEvent::outcome, Collectors.toList())));
    }

    private <V> List<V> read(TopicSpec<String, V> topic) {
        return TopicReader.committedValues(config.consumerProperties(), topic, Duration.ofSeconds(30));
    }

    /** The group's committed offset per partition of {@code object-tasks}. */
    Map<Integer, Long> committedOffsets() throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(
                ConsumerGroups.from(config).objectProcessor()).partitionsToOffsetAndMetadata().get();
        return offsets.entrySet().stream().filter(e -> e.getValue() != null)
                .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
    }

    Map<Integer, Long> endOffsets() throws ExecutionException, InterruptedException {
        Map<TopicPartition, OffsetSpec> request = new LinkedHashMap<>();
        for (int p = 0; p < topics.objectTasks().partitions(); p++) {
            request.put(new TopicPartition(topics.objectTasks().name(), p), OffsetSpec.latest());
        }
        return admin.listOffsets(request).all().get().entrySet().stream()
                .collect(Collectors.toMap(e -> e.getKey().partition(), e -> e.getValue().offset()));
    }

    /**
     * Waits until the group has committed every task published so far. A task written in a transaction (a
     * {@code dlq replay}) is followed by its commit marker, which the group's committed offset stays before until a
     * later task comes: what counts then is that no record is left to process.
     */
    void awaitAllCommitted(Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
            Map<Integer, Long> end = endOffsets();
            Map<Integer, Long> committed = committedOffsets();
            return end.entrySet().stream().allMatch(e -> e.getValue() == 0
                    || e.getValue().equals(committed.get(e.getKey())))
                    || backlog() == 0;
        });
    }

    /** The records of {@code object-tasks} the group has still to process, commit markers left out. */
    private long backlog() throws Exception {
        return new GroupLag(admin, config.consumerProperties()).backlog(ConsumerGroups.from(config).objectProcessor(),
                List.of(topics.objectTasks().name()));
    }

    /**
     * Ages every version of a key by {@code by}, their order kept: its history then agrees with a task that says a
     * version has been noncurrent for days ({@link #noncurrent}), which the processor checks against the key.
     */
    void age(String bucket, String key, Duration by) {
        for (ObjectVersionInfo version : emulator.s3().versions(bucket, key)) {
            emulator.s3().backdate(bucket, key, version.versionId(), S3Entries.modTime(version.entry()).minus(by));
            // A demoted version's stamp ages with it: the processor times a stamped version from its stamp.
            var since = S3Entries.noncurrentSince(version.entry());
            if (since.isPresent()) {
                String aged = String.valueOf(EpochNanos.of(since.get().minus(by)));
                try {
                    emulator.s3().store().modify(version.path(), e -> e.toBuilder().putExtended(
                            S3Layout.NONCURRENT_SINCE_NS, com.google.protobuf.ByteString.copyFromUtf8(aged)).build());
                } catch (io.tidemark.emulator.filer.FilerException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
    }

    @Override
    public void close() throws Exception {
        for (int i = owned.size() - 1; i >= 0; i--) {
            owned.get(i).close();
        }
        producer.close();
        admin.close();
        emulator.close();
    }
}
