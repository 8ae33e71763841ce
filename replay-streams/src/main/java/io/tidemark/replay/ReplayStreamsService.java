package io.tidemark.replay;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketConfig;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
import io.tidemark.service.OwnedResources;
import io.tidemark.service.StatusLog;
import io.tidemark.topics.CommittedLagGauge;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.ReplayInstances;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tidemark replay-streams}: one instance of the Kafka Streams application {@code <prefix>replay-streams}
 * (its consumer group is what operators watch), exactly-once, its timers in RocksDB with a changelog. Ready while
 * Streams is RUNNING; an error Streams cannot handle fails the service. Records it cannot read or process are
 * logged, counted by Streams and written to {@code <prefix>replay-streams.dlq}; the partition goes on.
 */
public final class ReplayStreamsService extends ManagedService {

    private static final Logger log = LoggerFactory.getLogger(ReplayStreamsService.class);

    private final TidemarkConfig config;
    /** How often the filer's clock is read: often enough that a step of it shows within seconds. */
    private static final Duration FILER_CLOCK_READINGS = Duration.ofSeconds(5);

    private final Clock clock;
    private final MeterRegistry meters;
    private final ReplayStreamsMetrics metrics;
    private final OwnedResources resources = new OwnedResources("replay-streams");
    private volatile KafkaStreams streams;
    private final String instanceId = java.lang.management.ManagementFactory.getRuntimeMXBean().getName()
            + "-" + java.util.UUID.randomUUID().toString().substring(0, 8);

    /** @param clock what timers fall due by (wall-clock punctuations) and what the instance reports carry */
    public ReplayStreamsService(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        super("replay-streams");
        this.config = config;
        this.clock = clock;
        this.meters = meters;
        this.metrics = new ReplayStreamsMetrics(meters);
    }

    public ReplayStreamsMetrics metrics() {
        return metrics;
    }

    /** Streams' {@code poll.ms} unless {@code kafka.streams.poll.ms} says otherwise; see {@link #streamsProperties}. */
    static final long POLL_MS = 10;

    /** The Streams settings: passthrough {@code kafka.streams.*} first, then what exactly-once timers require. */
    static Properties streamsProperties(TidemarkConfig config) {
        TopicRegistry topics = TopicRegistry.from(config);
        Properties props = new Properties();
        props.putAll(config.streamsProperties());
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, ConsumerGroups.from(config).replayStreams());
        props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        props.put(StreamsConfig.ENSURE_EXPLICIT_INTERNAL_RESOURCE_NAMING_CONFIG, true);
        props.put(StreamsConfig.STATE_DIR_CONFIG, ReplayStreamsSettings.stateDir(config).toAbsolutePath().toString());
        props.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, config.getInt(ReplayStreamsSettings.NUM_STREAM_THREADS));
        props.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, config.getInt(ReplayStreamsSettings.STANDBY_REPLICAS));
        props.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueProcessingExceptionHandler.class);
        props.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_GLOBAL_ENABLED_CONFIG, true);
        props.put(StreamsConfig.ERRORS_DEAD_LETTER_QUEUE_TOPIC_NAME_CONFIG, topics.replayStreamsDlq().name());
        short replication = config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR);
        props.putIfAbsent(StreamsConfig.REPLICATION_FACTOR_CONFIG, (int) replication);
        // The rearm partition of a task is nearly always empty. With any other value Streams checks, and formats a
        // log message about, that empty partition for every record (a quarter of processing in a profile); the
        // order of rearm against meta-log is not what keeps timers right anyway (TimerPlanner ignores stale re-arms).
        props.putIfAbsent(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        // Punctuators, and so every timer's firing, run only between polls, and a poll with nothing to read blocks
        // for poll.ms: at Streams' 100 ms a burst's one-off tick came up to 100 ms late and its catch-up slices
        // (fired before the deletes' own events flow back) 100 ms apart. An idle poll costs next to nothing.
        props.putIfAbsent(StreamsConfig.POLL_MS_CONFIG, POLL_MS);
        // Every store on one bounded cache (BoundedRocksDBMemory), unless the operator lifts the bound or brings a
        // config setter of their own; the bound travels to the setter among the Streams properties.
        long rocksdb = config.getLong(ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES);
        if (rocksdb != -1 && !props.containsKey(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG)) {
            props.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDBMemory.class);
            props.put(BoundedRocksDBMemory.MEMORY_BYTES_CONFIG, rocksdb);
        }
        return props;
    }

    @Override
    protected void doStart() throws Exception {
        // First of all: timers armed on another day length than the rest of the cluster's would fire at other times.
        ZooKeeperConnection zookeeper = resources.own(ZooKeeperConnection.start(config));
        LifecycleSettings.check(zookeeper.client(), config, name(), clock);
        TopicRegistry topics = TopicRegistry.from(config);
        Path applicationState = ReplayStreamsSettings.stateDir(config).resolve(ConsumerGroups.from(config)
                .replayStreams());
        // One admin client for both: the topics first, so that the local state is checked against topics that exist.
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR)).ensure(List.of(
                    topics.metaLog(), topics.rearm(), topics.bucketConfigs(), topics.objectTasks(),
                    topics.bucketTasks(), topics.replayStreamsDlq()));
            LocalState.prepare(applicationState, topics.bucketConfigs().name(), admin, metrics);
        }
        // Timers fall due by the filer's clock, which stamped the times they were computed from (invariant 7); Streams'
        // own timing (commits, polls) keeps this host's. Until the filer first answers a Ping, this host's is used:
        // a task fired early meanwhile is held by the object processor until it is due.
        FilerClient filer = resources.own(FilerClient.connect(config.getString(TidemarkConfig.FILER_ADDRESS),
                config.grpcTls(), config.grpcDeadline()));
        FilerClock filerTime = FilerClock.of(filer, clock, FilerClock.DEFAULT_MAX_AGE);
        Clock filerClock = filerTime.asClock();
        ScheduledExecutorService readings = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "replay-streams-filer-clock");
            t.setDaemon(true);
            return t;
        });
        resources.own("filer clock readings", readings::shutdownNow);
        readings.scheduleWithFixedDelay(() -> filerTime.now().exceptionally(error -> null), 0,
                FILER_CLOCK_READINGS.toMillis(), TimeUnit.MILLISECONDS);
        resources.own("clock skew gauge", Metrics.bind(meters, filerTime));
        ReplayTopology.Params params = ReplayTopology.Params.from(config, metrics)
                .withFilerOffset(() -> filerClock.millis() - clock.millis());
        Properties properties = streamsProperties(config);
        logRocksDbBound(properties);
        KafkaStreams app = new KafkaStreams(ReplayTopology.build(params), properties, ClockTime.of(clock));
        // Leaving the group hands this instance's shards to the others at once; Streams' default is to stay a member
        // until the session times out (45 s), during which nobody fires those shards' timers, and an instance
        // restarted on the same host waits that long to be assigned.
        resources.own("streams", () -> app.close(CloseOptions.timeout(Duration.ofMillis(Math.max(1_000,
                config.shutdownTimeout().toMillis() * 3 / 4))).withGroupMembershipOperation(
                CloseOptions.GroupMembershipOperation.LEAVE_GROUP)));
        app.setUncaughtExceptionHandler(error -> {
            fail(error);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        resources.own("streams metrics", Metrics.bind(meters, app));
        streams = app;
        app.start();
        resources.own(CommittedLagGauge.start(config.adminProperties(), meters,
                ConsumerGroups.from(config).replayStreams(topics), CommittedLagGauge.DEFAULT_INTERVAL));
        resources.own(StatusLog.start("replay-streams", config.millis(ReplayStreamsSettings.STATUS_INTERVAL_MS), log,
                () -> {
                    ReplayInstances.publish(zookeeper.client(), new ReplayInstances.Report(instanceId,
                            metrics.pending(), activeTasks(), clock.millis()));
                    return metrics.statusLine(app.state().name());
                }));
    }

    /** Says at start what bounds RocksDB's memory, and warns when nothing does. */
    private static void logRocksDbBound(Properties properties) {
        Object setter = properties.get(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG);
        if (setter == BoundedRocksDBMemory.class) {
            log.info("RocksDB: every store of this instance shares one {} MiB block cache, memtables included ({})",
                    ((Number) properties.get(BoundedRocksDBMemory.MEMORY_BYTES_CONFIG)).longValue() >> 20,
                    ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES);
        } else if (setter != null) {
            log.warn("RocksDB: kafka.streams.rocksdb.config.setter={} replaces {}: that setter alone bounds the "
                    + "stores' memory", setter, ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES);
        } else {
            log.warn("RocksDB: {}=-1, no bound: each store takes Kafka Streams' defaults (about 100 MB at most per "
                    + "store), so an instance's memory grows with the shards it holds",
                    ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES);
        }
    }

    @Override
    protected boolean readinessCheck() {
        KafkaStreams s = streams;
        return s != null && s.state() == KafkaStreams.State.RUNNING;
    }

    /** The bucket's configuration as this instance's global store holds it now (what firings are checked against). */
    public Optional<BucketConfig> bucketConfig(String bucket) {
        KafkaStreams s = streams;
        if (s == null || s.state() != KafkaStreams.State.RUNNING) {
            return Optional.empty();
        }
        ReadOnlyKeyValueStore<String, byte[]> store = s.store(StoreQueryParameters.fromNameAndType(
                ReplayTopology.BUCKET_CONFIGS_STORE, QueryableStoreTypes.keyValueStore()));
        byte[] raw = store.get(bucket);
        return raw == null ? Optional.empty() : Optional.of(TopicRegistry.from(config).bucketConfigs().valueSerde()
                .deserializer().deserialize(ReplayTopology.BUCKET_CONFIGS_STORE, raw));
    }

    /** Stream tasks (shards) this instance processes now. */
    public int activeTasks() {
        KafkaStreams s = streams;
        return s == null ? 0 : s.metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
    }

    public KafkaStreams.State streamsState() {
        KafkaStreams s = streams;
        return s == null ? KafkaStreams.State.CREATED : s.state();
    }

    @Override
    protected void doStop() {
        resources.close();
    }
}
