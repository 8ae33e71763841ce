package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.localcluster.EmbeddedZooKeeper;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.PopulatorCheckpoint.FilerCursor;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.MetaLogWriter;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.topics.JsonSerde;
import io.tidemark.topics.KafkaFailure;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tailer's transaction discipline, without a broker: Kafka's {@link MockProducer} stands in for the
 * transactional producer; the filer (emulator) and ZooKeeper are real.
 */
class MetaLogTailerTest {

    @TempDir
    static Path dir;

    static EmbeddedZooKeeper zookeeperServer;
    static ZooKeeperConnection zookeeper;

    private final TidemarkConfig config = new TidemarkConfig(Map.of("shard.bits", "2", "populator.batch.max.ms", "20",
            "populator.gap.recheck.ms", "200"));
    private final TopicRegistry topics = TopicRegistry.from(config);
    private final FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral()
            .withHeartbeatInterval(Duration.ofMillis(500)), Clock.systemUTC()).start();
    private final FilerClient filer = FilerClient.connect(emulator.filerAddress(), config.grpcTls(), Duration.ofSeconds(5));
    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(cluster(), true, new ShardPartitioner(),
            new ByteArraySerializer(), new ByteArraySerializer());
    private final BucketRegistry registry = new BucketRegistry(zookeeper.client(), RuleReader.aws());

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zookeeperServer = EmbeddedZooKeeper.start(dir, 0);
        zookeeper = ZooKeeperConnection.start(zookeeperServer.address(), "tailer-test", Duration.ofSeconds(10),
                Duration.ofSeconds(5), null);
    }

    @AfterAll
    static void stopZooKeeper() {
        zookeeper.close();
        zookeeperServer.close();
    }

    @AfterEach
    void stop() {
        filer.close();
        emulator.close();
    }

    private Cluster cluster() {
        Node node = new Node(0, "localhost", 9092);
        List<PartitionInfo> partitions = new ArrayList<>();
        for (TopicSpec<?, ?> t : topics.all()) {
            IntStream.range(0, t.partitions()).forEach(p -> partitions.add(new PartitionInfo(t.name(), p, node,
                    new Node[] {node}, new Node[] {node})));
        }
        return new Cluster("test", List.of(node), partitions, java.util.Set.of(), java.util.Set.of());
    }

    private final PopulatorMetrics metrics = new PopulatorMetrics(new SimpleMeterRegistry(), Clock.systemUTC());

    private MetaLogTailer tailer(CommittedState state) {
        return tailer(state, Map.of(), registry);
    }

    /**
     * A filer the master lists only after a long outage, to a populator just restarted (it remembers no published
     * event, so its peers' copies in the span cannot be told apart): the span since the last list without it is
     * recovered by walking every lifecycle bucket, as a gap of its own; the others' cursors stay.
     */
    @Test
    void shouldWalkEveryLifecycleBucketForAFilerFoundLateWhenPeersCopiesCouldNotBeToldApart() throws Exception {
        try (FilerEmulator three = new FilerEmulator(EmulatorSettings.ephemeral()
                .withHeartbeatInterval(Duration.ofMillis(500)).withFilers(3), Clock.systemUTC()).start();
             FilerClient client = FilerClient.connect(three.filerAddress(), config.grpcTls(), Duration.ofSeconds(5))) {
            var s3 = three.s3();
            for (String bucket : List.of("a", "b")) {
                s3.createBucket(bucket, false);
                s3.putLifecycle(bucket, PopulatorServiceTest.RULES);
            }
            s3.createBucket("plain", false);
            s3.via(three.filer(2)).putObject("a", "logs/through-the-late-one", 1, Map.of(), Map.of());
            long now = three.store().events(0).get(three.store().events(0).size() - 1).getTsNs();
            Map<String, FilerCursor> known = Map.of(
                    three.filerAddress(0), new FilerCursor(now, 0, System.currentTimeMillis()),
                    three.filerAddress(1), new FilerCursor(now, 0, System.currentTimeMillis()));
            long listed = now - Duration.ofMinutes(5).toNanos();
            CommittedState state = new CommittedState(Optional.of(new PopulatorCheckpoint(now, 0, 0, now - 1, null,
                    null, null, known, listed)), Map.of());

            MockProducer<byte[], byte[]> own = new MockProducer<>(cluster(), true, new ShardPartitioner(),
                    new ByteArraySerializer(), new ByteArraySerializer());
            own.initTransactions();
            TidemarkConfig several = new TidemarkConfig(Map.of("shard.bits", "2", "populator.batch.max.ms", "20",
                    "filer.master.address", three.masterAddress(), "populator.filers.discovery.ms", "200"));
            PopulatorSettings settings = PopulatorSettings.from(several);
            long gapsBefore = metrics.gapsFound();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            try (FilerDiscovery discovery = FilerDiscovery.from(several)) {
                new MetaLogTailer(settings, client, freshRegistry("found-late"),
                        () -> new TransactionalPublisher(own, topics), () -> state, config.ruleReader(),
                        ShardFunction.withBits(2), Clock.systemUTC(), metrics, discovery,
                        address -> FilerClient.connect(address, config.grpcTls(), Duration.ofSeconds(5)))
                        .run(() -> lastCheckpoint(own).filter(c -> c.gap() != null && !c.coldStarting()).isEmpty()
                                && System.nanoTime() < deadline);
            }

            assertThat(sent(own, topics.bucketTasks())).extracting(r -> new String(r.key()))
                    .as("a recovery walk of each lifecycle bucket").containsExactlyInAnyOrder("a", "b");
            PopulatorCheckpoint walked = lastCheckpoint(own).orElseThrow();
            assertThat(walked.gap().fromNs()).isEqualTo(listed - settings.filerMaxClockSkew().toNanos());
            assertThat(walked.gap().toNs()).isEqualTo(now - settings.coldStartOverlap().toNanos());
            assertThat(walked.filers()).containsKey(three.filerAddress(2));
            assertThat(walked.filers().get(three.filerAddress(0)).tsNs()).as("the others' cursors stay")
                    .isGreaterThanOrEqualTo(now);
            assertThat(walked.filersListedNs()).isGreaterThan(listed);
            assertThat(metrics.gapsFound() - gapsBefore).isEqualTo(1);
        }
    }

    /** A tailer with settings added to the test's and its own registry. */
    private MetaLogTailer tailer(CommittedState state, Map<String, String> extra, BucketRegistry registry) {
        return tailer(state, extra, registry, Clock.systemUTC());
    }

    /** ... on a host with the given clock (the filer's stays the system's). */
    private MetaLogTailer tailer(CommittedState state, Map<String, String> extra, BucketRegistry registry,
                                 Clock clock) {
        Map<String, String> settings = new java.util.HashMap<>(Map.of("shard.bits", "2", "populator.batch.max.ms", "20"));
        settings.putAll(extra);
        producer.initTransactions();
        return new MetaLogTailer(PopulatorSettings.from(new TidemarkConfig(settings)), filer, registry,
                () -> new TransactionalPublisher(producer, topics), () -> state, config.ruleReader(),
                ShardFunction.withBits(2), clock, metrics);
    }

    private List<PopulatorCheckpoint> checkpoints() {
        var serde = new JsonSerde<>(PopulatorCheckpoint.class).deserializer();
        return sent(topics.populatorCheckpoint()).stream().map(r -> serde.deserialize("", r.value())).toList();
    }

    /** A registry of its own, in a ZooKeeper namespace no other test writes. */
    private static BucketRegistry freshRegistry(String name) {
        return new BucketRegistry(zookeeper.client().usingNamespace("tailer-test-" + name), RuleReader.aws());
    }

    private static CommittedState from(long tsNs) {
        return new CommittedState(Optional.of(new PopulatorCheckpoint(tsNs, 0, 0, tsNs)), Map.of());
    }

    /**
     * From the start of the filer's history: just before its oldest meta-log file (a checkpoint before that would be
     * a meta-log gap, see {@link #shouldFindAMetaLogGapOnceAndAskForARecoveryWalkOfEveryLifecycleBucket}).
     */
    private CommittedState fromTheStart() {
        long first = emulator.store().events(0).get(0).getTsNs();
        return from(EpochNanos.of(EpochNanos.toInstant(first).truncatedTo(java.time.temporal.ChronoUnit.MINUTES)) - 1);
    }

    private List<ProducerRecord<byte[], byte[]>> sent(TopicSpec<?, ?> topic) {
        return producer.history().stream().filter(r -> r.topic().equals(topic.name())).toList();
    }

    private long lastFilerEventTsNs() {
        List<SubscribeMetadataResponse> events = emulator.store().events(0);
        return events.get(events.size() - 1).getTsNs();
    }

    private PopulatorCheckpoint lastCheckpoint() {
        var records = sent(topics.populatorCheckpoint());
        return new JsonSerde<>(PopulatorCheckpoint.class).deserializer()
                .deserialize("", records.get(records.size() - 1).value());
    }

    /** One term of a tailer on its own filer and producer, run until {@code done} holds of what it has sent. */
    private MockProducer<byte[], byte[]> term(FilerClient on, CommittedState state,
                                              java.util.function.Predicate<MockProducer<byte[], byte[]>> done)
            throws Exception {
        MockProducer<byte[], byte[]> own = new MockProducer<>(cluster(), true, new ShardPartitioner(),
                new ByteArraySerializer(), new ByteArraySerializer());
        own.initTransactions();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        new MetaLogTailer(PopulatorSettings.from(config), on, freshRegistry("gap-" + System.nanoTime()),
                () -> new TransactionalPublisher(own, topics), () -> state, config.ruleReader(), ShardFunction.withBits(2),
                Clock.systemUTC(), metrics).run(() -> !done.test(own) && System.nanoTime() < deadline);
        return own;
    }

    private List<ProducerRecord<byte[], byte[]>> sent(MockProducer<byte[], byte[]> by, TopicSpec<?, ?> topic) {
        return by.history().stream().filter(r -> r.topic().equals(topic.name())).toList();
    }

    private Optional<PopulatorCheckpoint> lastCheckpoint(MockProducer<byte[], byte[]> by) {
        var records = sent(by, topics.populatorCheckpoint());
        return records.isEmpty() ? Optional.empty() : Optional.of(new JsonSerde<>(PopulatorCheckpoint.class)
                .deserializer().deserialize("", records.get(records.size() - 1).value()));
    }

    /** Whether a term has published up to the filer event at {@code tsNs}, with no enumeration under way. */
    private boolean publishedTo(MockProducer<byte[], byte[]> by, long tsNs) {
        return lastCheckpoint(by).filter(c -> !c.coldStarting() && c.tsNs() >= tsNs).isPresent();
    }

    /** What a later term reads back: the last checkpoint and the configurations published. */
    private CommittedState committed(MockProducer<byte[], byte[]> by) {
        Map<String, BucketConfig> configs = new java.util.HashMap<>();
        for (var r : sent(by, topics.bucketConfigs())) {
            configs.put(new String(r.key()), topics.bucketConfigs().valueSerde().deserializer()
                    .deserialize(topics.bucketConfigs().name(), r.value()));
        }
        return new CommittedState(lastCheckpoint(by), configs);
    }

    /** A filer of its own whose clock the test moves, three hours back, so its log files can be purged. */
    private record PurgeableFiler(io.tidemark.emulator.MutableClock clock, FilerEmulator emulator, FilerClient client)
            implements AutoCloseable {

        static PurgeableFiler start(TidemarkConfig config) {
            var clock = new io.tidemark.emulator.MutableClock(java.time.Instant.now().minus(Duration.ofHours(3))
                    .truncatedTo(java.time.temporal.ChronoUnit.MINUTES));
            FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral()
                    .withHeartbeatInterval(Duration.ofMillis(200)), clock).start();
            return new PurgeableFiler(clock, emulator,
                    FilerClient.connect(emulator.filerAddress(), config.grpcTls(), Duration.ofSeconds(5)));
        }

        @Override
        public void close() {
            client.close();
            emulator.close();
        }
    }

    private static long lastEventTsNs(FilerEmulator on) {
        List<SubscribeMetadataResponse> events = on.store().events(0);
        return events.get(events.size() - 1).getTsNs();
    }

    /**
     * Issue 34: the populator was away while the filer's logs were purged past its checkpoint. The filer streams from
     * what it has, without a word; the populator finds the gap from the filer's log files, reports it once, and asks
     * for a recovery walk of every lifecycle bucket (their rules unchanged), so what changed in the gap is found.
     */
    @Test
    void shouldFindAMetaLogGapOnceAndAskForARecoveryWalkOfEveryLifecycleBucket() throws Exception {
        try (PurgeableFiler filer = PurgeableFiler.start(config)) {
            var filerClock = filer.clock();
            var purged = filer.emulator();
            var client = filer.client();
            var s3 = purged.s3();
            for (String bucket : List.of("a", "b")) {
                s3.createBucket(bucket, false);
                s3.putLifecycle(bucket, PopulatorServiceTest.RULES);
            }
            s3.createBucket("plain", false);
            s3.putObject("a", "logs/before", 1, Map.of(), Map.of());
            long before = lastEventTsNs(purged);
            // A checkpoint at ts 0 lies before the filer's history too: the first term walks every bucket as well.
            MockProducer<byte[], byte[]> first = term(client, from(0), p -> publishedTo(p, before));
            assertThat(sent(first, topics.bucketTasks())).hasSize(2);

            // Away: an object is written, then the filer's logs are purged past it, then more is written.
            filerClock.advance(Duration.ofMinutes(10));
            s3.putObject("a", "logs/lost", 1, Map.of(), Map.of());
            filerClock.advance(Duration.ofMinutes(10));
            assertThat(purged.store().purgeMetaLogBefore(filerClock.instant().minus(Duration.ofMinutes(5)))).isPositive();
            s3.putObject("b", "logs/after", 1, Map.of(), Map.of());
            long after = lastEventTsNs(purged);
            assertThat(io.tidemark.seaweed.FilerLogFiles.oldest(client)).contains(filerClock.instant()
                    .truncatedTo(java.time.temporal.ChronoUnit.MINUTES));

            CommittedState away = committed(first);
            long countBefore = away.checkpoint().map(PopulatorCheckpoint::gap).map(PopulatorCheckpoint.Gap::count)
                    .orElse(0L);
            long gapsBefore = metrics.gapsFound();
            MockProducer<byte[], byte[]> second = term(client, away, p -> publishedTo(p, after));
            assertThat(sent(second, topics.bucketTasks())).extracting(r -> new String(r.key()))
                    .as("a recovery walk of each lifecycle bucket, their rules unchanged")
                    .containsExactlyInAnyOrder("a", "b");
            PopulatorCheckpoint gapped = lastCheckpoint(second).orElseThrow();
            assertThat(gapped.gap()).isNotNull();
            assertThat(gapped.gap().fromNs()).isEqualTo(away.checkpoint().orElseThrow().tsNs());
            assertThat(gapped.gap().count()).isEqualTo(countBefore + 1);
            assertThat(metrics.gapsFound() - gapsBefore).isEqualTo(1);

            // Found once: the next term resumes from past the gap and asks for nothing.
            s3.putObject("plain", "x", 1, Map.of(), Map.of());
            long latest = lastEventTsNs(purged);
            MockProducer<byte[], byte[]> third = term(client, committed(second), p -> publishedTo(p, latest));
            assertThat(sent(third, topics.bucketTasks())).isEmpty();
            assertThat(metrics.gapsFound() - gapsBefore).isEqualTo(1);

            // Purged whole while away, and nothing logged since: the filer cannot tell yet. Once it logs again, the
            // gap is found after all, from where the term resumed.
            CommittedState beforeWholePurge = committed(third);
            filerClock.advance(Duration.ofMinutes(10));
            s3.putObject("b", "logs/lost-too", 1, Map.of(), Map.of());
            filerClock.advance(Duration.ofMinutes(10));
            assertThat(purged.store().purgeMetaLogBefore(filerClock.instant().plus(Duration.ofMinutes(1))))
                    .isPositive();
            assertThat(io.tidemark.seaweed.FilerLogFiles.oldest(client)).isEmpty();
            Thread writer = new Thread(() -> {
                try {
                    Thread.sleep(1_500);
                    s3.putObject("plain", "y", 1, Map.of(), Map.of());
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            writer.start();
            MockProducer<byte[], byte[]> fourth = term(client, beforeWholePurge,
                    p -> sent(p, topics.bucketTasks()).size() >= 2 && lastCheckpoint(p).filter(c -> !c.coldStarting())
                            .isPresent());
            writer.join();
            assertThat(sent(fourth, topics.bucketTasks())).extracting(r -> new String(r.key()))
                    .containsExactlyInAnyOrder("a", "b");
            PopulatorCheckpoint.Gap whole = lastCheckpoint(fourth).orElseThrow().gap();
            assertThat(whole.fromNs()).isEqualTo(beforeWholePurge.checkpoint().orElseThrow().tsNs());
            assertThat(whole.count()).isEqualTo(countBefore + 2);
            assertThat(metrics.gapsFound() - gapsBefore).isEqualTo(2);
        }
    }

    /**
     * Review of issue 34: an enumeration cut short resumes after its last chunk. A gap's walk-all does not ask again
     * for the walks of the buckets it had committed; and a cold start cut short, whose logs were purged meanwhile,
     * finds the gap before it goes on.
     */
    @Test
    void shouldResumeAnInterruptedEnumerationWithoutWalkingTwiceAndFindAGapBeforeIt() throws Exception {
        try (PurgeableFiler filer = PurgeableFiler.start(config)) {
            var filerClock = filer.clock();
            var purged = filer.emulator();
            var client = filer.client();
            var s3 = purged.s3();
            for (String bucket : List.of("a", "b", "c")) {
                s3.createBucket(bucket, false);
                s3.putLifecycle(bucket, PopulatorServiceTest.RULES);
            }
            long before = lastEventTsNs(purged);
            long firstMinute = EpochNanos.of(filerClock.instant()) - 1;
            MockProducer<byte[], byte[]> first = term(client, from(firstMinute), p -> publishedTo(p, before));
            CommittedState seen = committed(first);
            PopulatorCheckpoint at = seen.checkpoint().orElseThrow();

            // A gap's walk-all committed up to "a", then the leader died.
            PopulatorCheckpoint walking = at.gapFound(at.tsNs(), at.tsNs() + 1, EpochNanos.of(filerClock.instant()))
                    .enumeratedTo("a");
            MockProducer<byte[], byte[]> resumed = term(client, new CommittedState(Optional.of(walking), seen.configs()),
                    p -> lastCheckpoint(p).filter(c -> !c.coldStarting()).isPresent());
            assertThat(sent(resumed, topics.bucketTasks())).extracting(r -> new String(r.key()))
                    .as("walks asked for after the cursor only").containsExactlyInAnyOrder("b", "c");

            // A cold start committed up to "a"; away, the logs were purged past its subscription start.
            PopulatorCheckpoint coldStarting = new PopulatorCheckpoint(at.tsNs(), at.eventsAtTs(), at.published(),
                    at.coldStartNs(), "a");
            filerClock.advance(Duration.ofMinutes(10));
            s3.putObject("a", "logs/lost", 1, Map.of(), Map.of());
            filerClock.advance(Duration.ofMinutes(10));
            purged.store().purgeMetaLogBefore(filerClock.instant().minus(Duration.ofMinutes(5)));
            s3.putObject("c", "logs/after", 1, Map.of(), Map.of());
            long gapsBefore = metrics.gapsFound();
            MockProducer<byte[], byte[]> afterGap = term(client,
                    new CommittedState(Optional.of(coldStarting), seen.configs()),
                    p -> lastCheckpoint(p).filter(c -> !c.coldStarting() && c.gap() != null).isPresent());
            assertThat(metrics.gapsFound() - gapsBefore).isEqualTo(1);
            assertThat(sent(afterGap, topics.bucketTasks())).extracting(r -> new String(r.key()))
                    .as("a walk of every lifecycle bucket, those the cold start had listed too")
                    .containsExactlyInAnyOrder("a", "b", "c");
        }
    }

    @Test
    void shouldCommitEachBatchTogetherWithTheCheckpointThatCoversIt() throws Exception {
        emulator.s3().createBucket("b", false);
        emulator.s3().putLifecycle("b", PopulatorServiceTest.RULES);
        for (int i = 0; i < 10; i++) {
            emulator.s3().putObject("b", "logs/" + i, i, Map.of(), Map.of());
        }
        int events = emulator.store().events(0).size() - 1;   // less the buckets directory itself
        long lastTs = lastFilerEventTsNs();
        tailer(fromTheStart()).run(() -> producer.commitCount() == 0 || lastCheckpoint().tsNs() < lastTs);

        assertThat(sent(topics.metaLog())).hasSize(events);
        // Written from the filer's own bytes, read back as the event the filer logged.
        List<SubscribeMetadataResponse> logged = emulator.store().events(1);
        for (int i = 0; i < events; i++) {
            MetaLogRecord record = MetaLogRecord.parseFrom(sent(topics.metaLog()).get(i).value());
            assertThat(record.getEvent()).isEqualTo(logged.get(i).getEventNotification());
            assertThat(record.getTsNs()).isEqualTo(logged.get(i).getTsNs());
            assertThat(record.getWriter()).isEqualTo(MetaLogWriter.POPULATOR);
            assertThat(sent(topics.metaLog()).get(i).headers()).isEmpty();
        }
        assertThat(lastCheckpoint().tsNs()).isEqualTo(lastTs);
        assertThat(lastCheckpoint().published()).isEqualTo(events);
        assertThat(lastCheckpoint().eventsAtTs()).isEqualTo(1);
        assertThat(sent(topics.bucketTasks())).hasSize(1);
        assertThat(producer.transactionAborted()).isFalse();
        // Every record of a batch precedes its checkpoint.
        var history = producer.history();
        assertThat(history.get(history.size() - 1).topic()).isEqualTo(topics.populatorCheckpoint().name());
    }

    @Test
    void shouldShowGrowingLagWhileTheSubscriptionCannotReachTheFiler() throws Exception {
        emulator.s3().createBucket("b", false);
        AtomicBoolean leading = new AtomicBoolean(true);
        Thread run = new Thread(() -> {
            try {
                tailer(fromTheStart()).run(leading::get);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        run.start();
        try {
            await().atMost(Duration.ofSeconds(20)).until(() -> producer.commitCount() > 0);
            // Caught up and the filer answering (events or heartbeats): no lag to speak of.
            await().atMost(Duration.ofSeconds(20)).until(() -> metrics.lagSeconds() < 2);
            emulator.faults().setUnavailableProbability(1.0);
            emulator.dropSubscriptions();
            // Every reconnect fails now, and every poll comes back empty: that is not "caught up".
            await().atMost(Duration.ofSeconds(20)).until(() -> metrics.lagSeconds() > 3);
            emulator.faults().setUnavailableProbability(0);
            await().atMost(Duration.ofSeconds(30)).until(() -> metrics.lagSeconds() < 2);
        } finally {
            leading.set(false);
            run.join(10_000);
        }
    }

    @Test
    void shouldKeepTheRegistryNodeOfABucketWhoseCommittedConfigCouldNotBeReadAndLookItUpOnTheFiler()
            throws Exception {
        emulator.s3().createBucket("unreadable", false);
        emulator.s3().putLifecycle("unreadable", PopulatorServiceTest.RULES);
        BucketConfig config = BucketEntryConfig.read("unreadable",
                emulator.store().lookup("/buckets", "unreadable").orElseThrow(), RuleReader.aws()).orElseThrow();
        registry.apply(new BucketConfigChange("unreadable", config, false));
        long now = lastFilerEventTsNs();
        // The bucket's last bucket-configs record could not be read: the committed state does not know its config.
        CommittedState state = new CommittedState(Optional.of(new PopulatorCheckpoint(now, 1, 0, now)), Map.of(),
                Optional.empty(), java.util.Set.of("unreadable"));
        tailer(state).run(() -> false);
        assertThat(registry.read("unreadable")).as("a bucket with rules on the filer stays registered")
                .contains(registry.entryFor(config));
        assertThat(metrics.unreadableConfigs()).isEqualTo(1);
    }

    @Test
    void shouldPublishPastABucketWhoseNameZooKeeperRejectsAndCountIt() throws Exception {
        long start = lastFilerEventTsNs();
        // A directory made behind the gateway's back, with a control character ZooKeeper refuses in a path.
        emulator.s3().createBucket("odd\u0001name", false);
        emulator.s3().putLifecycle("odd\u0001name", PopulatorServiceTest.RULES);
        emulator.s3().createBucket("b", false);
        emulator.s3().putLifecycle("b", PopulatorServiceTest.RULES);
        List<SubscribeMetadataResponse> events = emulator.store().events(0);
        long lastTs = events.get(events.size() - 1).getTsNs();
        tailer(from(start)).run(() -> producer.commitCount() == 0 || lastCheckpoint().tsNs() < lastTs);
        assertThat(lastCheckpoint().tsNs()).isEqualTo(lastTs);
        assertThat(registry.read("b")).isPresent();
        assertThat(metrics.registryRejected()).isEqualTo(1);
    }

    @Test
    void shouldPublishPastABucketTheFilerPermanentlyRefusesToLookUpAndCountIt() throws Exception {
        long start = lastFilerEventTsNs();
        emulator.s3().createBucket("locked-out", false);
        emulator.s3().putLifecycle("locked-out", PopulatorServiceTest.RULES);
        emulator.s3().createBucket("b", false);
        emulator.s3().putLifecycle("b", PopulatorServiceTest.RULES);
        emulator.faults().refuseLookups("locked-out", io.grpc.Status.Code.PERMISSION_DENIED);
        List<SubscribeMetadataResponse> events = emulator.store().events(0);
        long lastTs = events.get(events.size() - 1).getTsNs();
        tailer(from(start)).run(() -> producer.commitCount() == 0 || lastCheckpoint().tsNs() < lastTs);
        assertThat(lastCheckpoint().tsNs()).isEqualTo(lastTs);
        assertThat(registry.read("b")).isPresent();
        assertThat(registry.read("locked-out")).as("left as it was: its configuration is unknown").isEmpty();
        assertThat(metrics.bucketLookupsFailed()).isEqualTo(1);
    }

    @Test
    void shouldWriteTheRegistryThenAbortAndRethrowWhenTheCommitFails() throws Exception {
        emulator.s3().createBucket("kafka-down", false);
        emulator.s3().putLifecycle("kafka-down", PopulatorServiceTest.RULES);
        producer.commitTransactionException = new TimeoutException("the broker did not answer");

        assertThatThrownBy(() -> tailer(fromTheStart()).run(() -> true)).isInstanceOf(TimeoutException.class);
        assertThat(producer.transactionAborted()).isTrue();
        assertThat(producer.commitCount()).isZero();
        // Written before the commit was tried; idempotent, so the retry that follows rewrites it harmlessly.
        assertThat(registry.read("kafka-down")).isPresent();
    }

    @Test
    void shouldAbortTheOpenBatchWhenLeadershipEndsBeforeItsCommit() throws Exception {
        emulator.s3().createBucket("b", false);
        emulator.s3().putObject("b", "k", 1, Map.of(), Map.of());
        AtomicInteger asked = new AtomicInteger();
        BooleanSupplier leadsOnlyOnce = () -> asked.incrementAndGet() == 1;

        tailer(fromTheStart()).run(leadsOnlyOnce);
        assertThat(producer.transactionAborted()).isTrue();
        assertThat(producer.commitCount()).isZero();
        assertThat(asked.get()).isEqualTo(2);
    }

    @Test
    void shouldResumeAfterTheCommittedMetaLogWhenItRunsPastTheCheckpoint() throws Exception {
        emulator.s3().createBucket("b", false);
        for (int i = 0; i < 6; i++) {
            emulator.s3().putObject("b", "k" + i, 1, Map.of(), Map.of());
        }
        var events = emulator.store().events(0);
        long lastTs = events.get(events.size() - 1).getTsNs();
        // The checkpoint says event 2; the meta-log already holds everything up to event 4.
        CommittedState state = new CommittedState(Optional.of(new PopulatorCheckpoint(events.get(2).getTsNs(), 1, 2, 0)),
                Map.of(), Optional.of(new CommittedState.MetaLogPosition(events.get(4).getTsNs(), 0)));
        tailer(state).run(() -> producer.commitCount() == 0 || lastCheckpoint().tsNs() < lastTs);

        assertThat(sent(topics.metaLog())).extracting(r -> MetaLogRecord.parseFrom(r.value()).getTsNs())
                .containsExactlyElementsOf(events.subList(5, events.size()).stream()
                        .map(SubscribeMetadataResponse::getTsNs).toList());
    }

    @Test
    void shouldResumeFromTheCheckpointWhenTheMetaLogEndsThere() throws Exception {
        emulator.s3().createBucket("b", false);
        emulator.s3().putObject("b", "k", 1, Map.of(), Map.of());
        var events = emulator.store().events(0);
        long lastTs = events.get(events.size() - 1).getTsNs();
        CommittedState state = new CommittedState(Optional.of(new PopulatorCheckpoint(events.get(1).getTsNs(), 1, 2, 0)),
                Map.of(), Optional.of(new CommittedState.MetaLogPosition(events.get(1).getTsNs(), 0)));
        tailer(state).run(() -> producer.commitCount() == 0 || lastCheckpoint().tsNs() < lastTs);

        assertThat(sent(topics.metaLog())).hasSize(events.size() - 2);
    }

    @Test
    void shouldResumeAfterTheEventsAlreadyCountedAtTheCheckpointTimestamp() throws Exception {
        emulator.s3().createBucket("b", false);
        for (int i = 0; i < 5; i++) {
            emulator.s3().putObject("b", "k" + i, 1, Map.of(), Map.of());
        }
        var events = emulator.store().events(0);
        long resumeTs = events.get(3).getTsNs();
        long lastTs = events.get(events.size() - 1).getTsNs();
        CommittedState state = new CommittedState(Optional.of(new PopulatorCheckpoint(resumeTs, 1, 3, 0)), Map.of());
        tailer(state).run(() -> producer.commitCount() == 0 || lastCheckpoint().tsNs() < lastTs);

        assertThat(sent(topics.metaLog())).hasSize(events.size() - 4);
        assertThat(lastCheckpoint().published()).isEqualTo(3 + events.size() - 4);
    }

    /** Issue 15 item 4: the enumeration is committed a chunk at a time, each chunk naming the last bucket listed. */
    @Test
    void shouldColdStartInChunksEachCommittedWithTheLastBucketListed() throws Exception {
        for (int b = 0; b < 7; b++) {
            emulator.s3().createBucket("b-" + b, false);
            emulator.s3().putLifecycle("b-" + b, PopulatorServiceTest.RULES);
        }
        emulator.s3().createBucket("plain", false);
        BucketRegistry own = freshRegistry("chunks");

        tailer(new CommittedState(Optional.empty(), Map.of()), Map.of("populator.cold-start.chunk.buckets", "3"), own)
                .run(() -> producer.commitCount() == 0 || lastCheckpoint().coldStarting());

        List<PopulatorCheckpoint> checkpoints = checkpoints();
        assertThat(checkpoints).extracting(PopulatorCheckpoint::coldStartCursor)
                .containsExactly("b-2", "b-5", null);
        assertThat(checkpoints).extracting(PopulatorCheckpoint::tsNs).containsOnly(checkpoints.get(0).tsNs());
        assertThat(checkpoints).extracting(PopulatorCheckpoint::coldStartNs).containsOnly(checkpoints.get(0).coldStartNs());
        assertThat(sent(topics.bucketTasks())).hasSize(7);
        assertThat(own.buckets()).hasSize(7);
        assertThat(metrics.coldStarts()).isEqualTo(1);
        assertThat(metrics.coldStartBuckets()).isEqualTo(8);
    }

    /**
     * Issue 29 (invariant 7): a cold start subscribes from a little before its enumeration began, and that moment was
     * read on the populator's host clock. A host an hour ahead subscribed an hour into the filer's future, and every
     * change of that hour was never published. The moment is the filer's.
     */
    @Test
    void shouldColdStartFromTheFilersTimeWhenItsHostsClockRunsAhead() throws Exception {
        emulator.s3().createBucket("b", false);
        emulator.s3().putLifecycle("b", PopulatorServiceTest.RULES);
        Clock hourAhead = Clock.offset(Clock.systemUTC(), Duration.ofHours(1));

        tailer(new CommittedState(Optional.empty(), Map.of()), Map.of(), freshRegistry("ahead"), hourAhead)
                .run(() -> producer.commitCount() == 0);

        long filerNow = EpochNanos.of(Instant.now());
        PopulatorCheckpoint first = checkpoints().get(0);
        assertThat(first.coldStartNs()).as("the enumeration's start, on the filer's clock").isLessThanOrEqualTo(filerNow);
        assertThat(first.tsNs()).as("where the subscription begins").isLessThan(first.coldStartNs());
    }

    /**
     * A cold start cut short resumes after its cursor; the buckets enumerated before it are not listed again but
     * looked up, so one deleted meanwhile is removed and the others stay as they were.
     */
    @Test
    void shouldResumeAnInterruptedColdStartAfterItsCursorAndLookUpTheBucketsEnumeratedBefore() throws Exception {
        Map<String, BucketConfig> before = new java.util.HashMap<>();
        for (String name : List.of("a-1", "a-2", "a-3", "b-1", "b-2")) {
            emulator.s3().createBucket(name, false);
            emulator.s3().putLifecycle(name, PopulatorServiceTest.RULES);
            if (name.startsWith("a-")) {
                before.put(name, BucketEntryConfig.read(name, emulator.store().lookup("/buckets", name).orElseThrow(),
                        RuleReader.aws()).orElseThrow());
            }
        }
        emulator.s3().deleteBucket("a-2");
        BucketRegistry own = freshRegistry("resume");
        long start = fromTheStart().checkpoint().orElseThrow().tsNs();
        CommittedState interrupted = new CommittedState(Optional.of(new PopulatorCheckpoint(start, 0, 0, start, "a-3")),
                before);

        tailer(interrupted, Map.of(), own).run(() -> producer.commitCount() == 0 || lastCheckpoint().coldStarting());

        assertThat(checkpoints()).extracting(PopulatorCheckpoint::coldStartCursor).containsExactly((String) null);
        assertThat(checkpoints().get(0).tsNs()).as("the subscription still begins where the cold start began")
                .isEqualTo(start);
        var configs = sent(topics.bucketConfigs());
        assertThat(configs).extracting(r -> new String(r.key())).containsExactlyInAnyOrder("a-2", "b-1", "b-2");
        assertThat(configs).filteredOn(r -> new String(r.key()).equals("a-2")).extracting(r -> r.value())
                .containsExactly((byte[]) null);
        assertThat(sent(topics.bucketTasks())).extracting(r -> new String(r.key())).containsExactlyInAnyOrder("b-1", "b-2");
        assertThat(own.buckets()).containsExactly("a-1", "a-3", "b-1", "b-2");
    }

    /** Issue 15 item 2: the registry is reconciled while tailing, not only when a term starts. */
    @Test
    void shouldRepairARegistryNodeDeletedBehindItsBackWhileTailing() throws Exception {
        emulator.s3().createBucket("watched", false);
        emulator.s3().putLifecycle("watched", PopulatorServiceTest.RULES);
        BucketRegistry own = freshRegistry("periodic");
        AtomicBoolean leading = new AtomicBoolean(true);
        Thread run = new Thread(() -> {
            try {
                tailer(fromTheStart(), Map.of("populator.registry.reconcile.ms", "200"), own).run(leading::get);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        run.start();
        try {
            // Every filer event published first: otherwise an event still on its way re-registers the bucket
            // itself, and the reconcile finds nothing to repair.
            long lastTs = lastFilerEventTsNs();
            await().atMost(Duration.ofSeconds(20)).until(() -> own.read("watched").isPresent()
                    && producer.commitCount() > 0 && lastCheckpoint().tsNs() >= lastTs);
            long repairsBefore = metrics.registryRepairs();
            var registered = own.read("watched").orElseThrow();
            // A deposed leader's late delete, or a hand edit.
            own.apply(new BucketConfigChange("watched", null, false));
            // The counter moves just after the write, on the tailer's thread: wait for both.
            await().atMost(Duration.ofSeconds(20)).until(() -> own.read("watched").isPresent()
                    && metrics.registryRepairs() > repairsBefore);
            assertThat(own.read("watched")).contains(registered);
        } finally {
            leading.set(false);
            run.join(10_000);
        }
    }

    /** Issue 15 item 2: once the leader node is gone, a batch's registry write is refused and nothing commits. */
    @Test
    void shouldEndTheTermWithoutCommittingOrRegisteringWhenItsLeaderNodeIsGone() throws Exception {
        emulator.s3().createBucket("late", false);
        emulator.s3().putLifecycle("late", PopulatorServiceTest.RULES);
        BucketRegistry own = freshRegistry("fenced");
        String leaderNode = zookeeper.client().usingNamespace("tailer-test-fenced").create().creatingParentsIfNeeded()
                .withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath("/latch/n-");
        AtomicInteger asked = new AtomicInteger();
        BooleanSupplier leadsUntilTheSessionGoes = () -> {
            if (asked.incrementAndGet() == 1) {
                try {
                    zookeeper.client().usingNamespace("tailer-test-fenced").delete().forPath(leaderNode);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
            return true;
        };

        tailer(fromTheStart(), Map.of(), own).run(leadsUntilTheSessionGoes, leaderNode);

        assertThat(producer.commitCount()).isZero();
        assertThat(producer.transactionAborted()).isTrue();
        assertThat(own.read("late")).isEmpty();
    }

    /**
     * Issue 15 item 4: a transaction that outlived transaction.timeout.ms was aborted by the coordinator, which bumps
     * the epoch; the error reads like fencing, but no successor exists, so the instance must not stand down.
     */
    @Test
    void shouldTellATransactionAbortedForItsTimeoutFromFencing() throws Exception {
        emulator.s3().createBucket("slow", false);
        emulator.s3().putObject("slow", "k", 1, Map.of(), Map.of());
        producer.commitTransactionException = new InvalidProducerEpochException("the coordinator bumped the epoch");

        Throwable timedOut = catchThrowable(() -> tailer(fromTheStart(),
                Map.of("kafka.producer.transaction.timeout.ms", "0"), registry).run(() -> true));

        assertThat(timedOut).isInstanceOf(TransactionTimedOutException.class);
        assertThat(KafkaFailure.of(timedOut)).isEqualTo(KafkaFailure.TIMED_OUT);
        assertThat(metrics.transactionsTimedOut()).isEqualTo(1);
    }

    @Test
    void shouldStillTakeAnEpochErrorWithinTheTimeoutForFencing() throws Exception {
        emulator.s3().createBucket("fenced", false);
        emulator.s3().putObject("fenced", "k", 1, Map.of(), Map.of());
        producer.commitTransactionException = new InvalidProducerEpochException("a successor");

        Throwable fenced = catchThrowable(() -> tailer(fromTheStart()).run(() -> true));

        assertThat(fenced).isInstanceOf(InvalidProducerEpochException.class);
        assertThat(KafkaFailure.of(fenced)).isEqualTo(KafkaFailure.FENCED);
        assertThat(metrics.transactionsTimedOut()).isZero();
    }

    /**
     * Issue 15 item 9: the filer may stamp several events with one ts_ns and its since_ns is inclusive, so a resume
     * in the middle of such a run must skip exactly the events the checkpoint counted there, no more, no fewer.
     */
    @Test
    void shouldResumeInTheMiddleOfARunOfEventsSharingOneTimestamp() throws Exception {
        emulator.store().stampEventsInRunsOf(3);
        emulator.s3().createBucket("b", false);
        for (int i = 0; i < 7; i++) {
            emulator.s3().putObject("b", "k" + i, 1, Map.of(), Map.of());
        }
        List<SubscribeMetadataResponse> events = emulator.store().events(0).stream()
                .filter(e -> e.getDirectory().startsWith("/buckets")).toList();
        long runTs = events.get(3).getTsNs();
        List<SubscribeMetadataResponse> run = events.stream().filter(e -> e.getTsNs() == runTs).toList();
        assertThat(run).as("a run of three events at one ts_ns").hasSize(3);
        long lastTs = events.get(events.size() - 1).getTsNs();
        List<SubscribeMetadataResponse> expected = new ArrayList<>(run.subList(2, 3));
        events.stream().filter(e -> e.getTsNs() > runTs).forEach(expected::add);

        // Two of the run's three events were published before the crash.
        CommittedState state = new CommittedState(Optional.of(new PopulatorCheckpoint(runTs, 2, 2, 0)), Map.of());
        tailer(state).run(() -> producer.commitCount() == 0 || lastCheckpoint().tsNs() < lastTs);

        assertThat(sent(topics.metaLog())).extracting(r -> MetaLogRecord.parseFrom(r.value()).getEvent())
                .containsExactlyElementsOf(expected.stream().map(SubscribeMetadataResponse::getEventNotification).toList());
        assertThat(MetaLogRecord.parseFrom(sent(topics.metaLog()).get(0).value()).getSeqAtTs()).isEqualTo(2);
        assertThat(lastCheckpoint().eventsAtTs()).isEqualTo(expected.stream().filter(e -> e.getTsNs() == lastTs).count());
    }
}
