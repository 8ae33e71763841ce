package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * One populator deployment for a test: its own filer emulator, topic prefix and ZooKeeper chroot on the shared
 * cluster, and the readers the assertions need (committed topic contents, the filer's own event list).
 */
final class PopulatorFixture implements AutoCloseable {

    /** A committed meta-log record and where it landed. */
    record Published(int partition, long offset, MetaLogRecord record) {
    }

    final FilerEmulator emulator;
    final Map<String, String> settings;
    final TidemarkConfig config;
    final TopicRegistry topics;
    final ZooKeeperConnection zookeeper;
    private final Admin admin;
    private final List<AutoCloseable> owned = new ArrayList<>();
    /** The meters of each populator started, in order. */
    final List<io.micrometer.core.instrument.MeterRegistry> meters = new ArrayList<>();

    private PopulatorFixture(FilerEmulator emulator, Map<String, String> settings) {
        this.emulator = emulator;
        this.settings = settings;
        this.config = new TidemarkConfig(settings);
        this.topics = TopicRegistry.from(config);
        this.zookeeper = ZooKeeperConnection.start(config);
        this.admin = Admin.create(config.adminProperties());
    }

    static PopulatorFixture start(LocalCluster cluster, ClusterNamespace ns, String name, Map<String, String> extra) {
        return start(cluster, ns, name, extra, 1);
    }

    /** With several filers, the populator finds them from the emulator's master and tails each. */
    static PopulatorFixture start(LocalCluster cluster, ClusterNamespace ns, String name, Map<String, String> extra,
                                  int filers) {
        FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral()
                .withHeartbeatInterval(Duration.ofMillis(500)).withFilers(filers), Clock.systemUTC()).start();
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put("zookeeper.chroot", ns.zookeeperChroot() + "-" + name);
        settings.put("zookeeper.session.timeout.ms", "4000");
        settings.put("filer.address", emulator.filerAddress());
        if (filers > 1) {
            settings.put("filer.master.address", emulator.masterAddress());
        }
        settings.put("topic.prefix", ns.topicPrefix() + name + ".");
        settings.put("shard.bits", "2");
        settings.put("management.host", "127.0.0.1");
        settings.put("management.port", "0");
        settings.put("populator.batch.max.ms", "50");
        settings.put("populator.status.interval.ms", "1000");
        settings.put("populator.retry.backoff.max.ms", "1000");
        settings.put("populator.stream.idle.timeout.ms", "3000");
        settings.putAll(extra);
        return new PopulatorFixture(emulator, settings);
    }

    PopulatorService startPopulator() {
        return startPopulator(Clock.systemUTC());
    }

    /** A populator whose clock may disagree with the filer's. */
    PopulatorService startPopulator(Clock clock) {
        return startPopulator(clock, null);
    }

    /** A populator with its own way of joining the election (null: the real latch). */
    PopulatorService startPopulator(Clock clock, java.util.function.Function<CuratorFramework, Leadership> elections) {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        meters.add(registry);
        PopulatorService service = new PopulatorService(config, clock, registry, elections);
        owned.add(service);
        service.start();
        return service;
    }

    /** The settings as {@code key=value} arguments for a child process. */
    String[] settingsArguments() {
        return settings.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toArray(String[]::new);
    }

    BucketRegistry registry() {
        return new BucketRegistry(zookeeper.client(), RuleReader.aws());
    }

    /** The committed checkpoint; empty also while no populator has created the topics yet. */
    Optional<PopulatorCheckpoint> checkpoint() throws Exception {
        if (!admin.listTopics().names().get().contains(topics.populatorCheckpoint().name())) {
            return Optional.empty();
        }
        return CommittedState.read(config.consumerProperties(), topics, Duration.ofSeconds(30)).checkpoint();
    }

    /** Every filer's own events under the buckets directory, in stamp order. */
    List<SubscribeMetadataResponse> filerEvents() {
        String prefix = emulator.s3().bucketsDirectory() + "/";
        List<SubscribeMetadataResponse> events = new ArrayList<>();
        for (int i = 0; i < emulator.filerCount(); i++) {
            emulator.filer(i).events().stream().filter(e -> path(e).startsWith(prefix)).forEach(events::add);
        }
        events.sort(Comparator.comparingLong(SubscribeMetadataResponse::getTsNs));
        return events;
    }

    private static String path(SubscribeMetadataResponse e) {
        EventNotification n = e.getEventNotification();
        String name = n.hasOldEntry() ? n.getOldEntry().getName() : n.getNewEntry().getName();
        return e.getDirectory().endsWith("/") ? e.getDirectory() + name : e.getDirectory() + "/" + name;
    }

    /** Waits until the committed checkpoint covers the filer's last event. */
    void awaitCaughtUp(Duration timeout) {
        List<SubscribeMetadataResponse> events = filerEvents();
        long last = events.get(events.size() - 1).getTsNs();
        await().atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> checkpoint()
                .map(c -> c.tsNs() >= last).orElse(false));
    }

    List<Published> metaLog() {
        List<Published> out = new ArrayList<>();
        for (ConsumerRecord<String, MetaLogRecord> r : committed(topics.metaLog())) {
            out.add(new Published(r.partition(), r.offset(), r.value()));
        }
        return out;
    }

    /** Every committed record of a topic, partition by partition, in offset order. */
    <V> List<ConsumerRecord<String, V>> committed(TopicSpec<String, V> topic) {
        Map<String, Object> props = new HashMap<>(config.consumerProperties());
        props.put("isolation.level", "read_committed");
        props.put("enable.auto.commit", false);
        List<ConsumerRecord<String, V>> out = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicReader.readToEnd(consumer, topic.name(), topic.partitions(), Duration.ofSeconds(30),
                    r -> out.add(new ConsumerRecord<>(r.topic(), r.partition(), r.offset(),
                            topic.keySerde().deserializer().deserialize(topic.name(), r.key()),
                            r.value() == null ? null : topic.valueSerde().deserializer().deserialize(topic.name(), r.value()))));
        }
        out.sort(Comparator.comparingInt((ConsumerRecord<String, V> r) -> r.partition()).thenComparingLong(ConsumerRecord::offset));
        return out;
    }

    /**
     * The meta-log holds every filer event from where the cold start subscribed (its enumeration's start less the
     * overlap) exactly once, each on its object's shard, in the filer's order within each partition — equal
     * timestamps in order of their count at that timestamp. Counting from the filer's events, not from the first
     * published one, is what makes a lost first event, or one written during the enumeration and skipped, show.
     */
    void assertExactlyOnce() throws Exception {
        assertExactlyOnce(true);
    }

    /**
     * As {@link #assertExactlyOnce()}; with {@code stampOrder} false (several filers, whose clocks disagree: an
     * object's events are in the order they happened, not always in stamp order), the order within each partition is
     * not checked by stamp.
     */
    void assertExactlyOnce(boolean stampOrder) throws Exception {
        List<Published> published = metaLog();
        assertThat(published).isNotEmpty();
        PopulatorCheckpoint checkpoint = checkpoint().orElseThrow();
        long subscribedFrom = checkpoint.coldStartNs()
                - config.millis(PopulatorSettings.COLD_START_OVERLAP_MS).toNanos();
        List<SubscribeMetadataResponse> events = filerEvents();
        List<Long> expected = events.stream().map(SubscribeMetadataResponse::getTsNs).filter(ts -> ts >= subscribedFrom)
                .toList();
        List<Long> actual = published.stream().map(p -> p.record().getTsNs()).sorted().toList();
        assertThat(actual).as(() -> "published ts_ns, sorted, against the filer's events since the cold start "
                + "subscribed; " + difference(expected, actual)).containsExactlyElementsOf(expected);
        int partitions = topics.metaLog().partitions();
        Map<Integer, MetaLogRecord> lastPerPartition = new HashMap<>();
        for (Published p : published) {
            MetaLogRecord r = p.record();
            assertThat(p.partition()).isEqualTo(r.getShard())
                    .isEqualTo(ShardPartitioner.shardOf(ShardPartitioner.key(r.getBucket(), r.getLogicalKey()), partitions));
            MetaLogRecord before = lastPerPartition.put(p.partition(), r);
            if (!stampOrder) {
                continue;
            }
            assertThat(before == null || before.getTsNs() < r.getTsNs()
                    || before.getTsNs() == r.getTsNs() && before.getSeqAtTs() < r.getSeqAtTs())
                    .as("order within partition %s", p.partition()).isTrue();
        }
    }

    /** What one list of timestamps holds more often than the other, both ways, so a failure names the events. */
    private static String difference(List<Long> expected, List<Long> actual) {
        Map<Long, Integer> count = new java.util.TreeMap<>();
        expected.forEach(ts -> count.merge(ts, 1, Integer::sum));
        actual.forEach(ts -> count.merge(ts, -1, Integer::sum));
        count.values().removeIf(n -> n == 0);
        return "ts_ns published too few (+) or too many (-) times: " + count;
    }

    @Override
    public void close() throws Exception {
        for (int i = owned.size() - 1; i >= 0; i--) {
            owned.get(i).close();
        }
        admin.close();
        zookeeper.close();
        emulator.close();
    }
}
