package io.tidemark.objectprocessor;

import io.tidemark.zookeeper.OwedWalkNotes;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
import io.tidemark.service.OwnedResources;
import io.tidemark.service.StatusLog;
import io.tidemark.topics.CommittedLagGauge;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.ControlsWatch;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tidemark object-processor}: one member of the consumer group {@code <prefix>object-processor}, running a
 * {@link TaskLoop} on a thread of its own. It talks to the S3 gateway (LifecycleDelete), to the filer (each bucket's
 * rules as they are now, and the listings an abort is checked with) and to ZooKeeper (the operators' pause and dry
 * run). It asks the gateway and the filer first ({@link ClusterCheck}): a gateway without LifecycleDelete is refused
 * at start. Ready once the loop polls, while the gateway serves LifecycleDelete and the filer answers; a failure of
 * the loop
 * (Kafka refusing the audit trail) fails the service. SIGTERM lets calls in flight finish within half the shutdown
 * timeout, commits what finished, and leaves the group.
 */
public final class ObjectProcessorService extends ManagedService {

    private static final Logger log = LoggerFactory.getLogger(ObjectProcessorService.class);

    private final TidemarkConfig config;
    private final Clock clock;
    private final MeterRegistry meters;
    private final ObjectProcessorMetrics metrics;
    private final ObjectProcessorSettings settings;
    private final LatenessSettings latenessSettings;
    private final OwnedResources resources = new OwnedResources("object-processor");

    private volatile boolean running;
    private volatile TaskLoop loop;
    private volatile ClusterCheck cluster;
    private volatile Thread worker;

    public ObjectProcessorService(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        super("object-processor");
        this.config = config;
        this.clock = clock;
        this.meters = meters;
        this.metrics = new ObjectProcessorMetrics(meters);
        this.settings = ObjectProcessorSettings.from(config);
        this.latenessSettings = LatenessSettings.from(config);
    }

    public ObjectProcessorMetrics metrics() {
        return metrics;
    }

    @Override
    protected void doStart() throws Exception {
        running = true;
        // First of all: a gateway that cannot delete is refused before anything is joined (a SeaweedFS older than the
        // first release with LifecycleDelete would refuse every task), and one that does not answer yet keeps the
        // processor unready until it does.
        LifecycleDeleteClient gateway = resources.own(LifecycleDeleteClient.connect(
                config.getString(TidemarkConfig.S3_GRPC_ADDRESS), config.grpcTls(), config.grpcDeadline()));
        FilerClient filer = resources.own(FilerClient.connect(config.getString(TidemarkConfig.FILER_ADDRESS),
                config.grpcTls(), config.grpcDeadline()));
        ClusterCheck cluster = resources.own("cluster check", new ClusterCheck(gateway,
                config.getString(TidemarkConfig.S3_GRPC_ADDRESS), filer, config.getString(TidemarkConfig.FILER_ADDRESS),
                config.millis(ObjectProcessorSettings.CLUSTER_CHECK_INTERVAL_MS)));
        cluster.atStart();
        this.cluster = cluster;
        // Then: a service that would decide otherwise than the rest of the cluster does nothing.
        ZooKeeperConnection zookeeper = resources.own(ZooKeeperConnection.start(config));
        LifecycleSettings.check(zookeeper.client(), config, name(), clock);
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR))
                    .ensure(List.of(topics.objectTasks(), topics.objectTasksDlq(), topics.lifecycleEvents(),
                            topics.bucketTasks()));
        }
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties(config),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        resources.own("consumer", () -> consumer.close(Duration.ofSeconds(5)));
        resources.own("consumer metrics", Metrics.bind(meters, consumer));
        KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                KafkaClients.idempotentProducer(config.producerProperties()), new ByteArraySerializer(),
                new ByteArraySerializer());
        resources.own("producer", () -> producer.close(Duration.ofSeconds(5)));
        resources.own("producer metrics", Metrics.bind(meters, producer));
        ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "object-processor-timers");
            t.setDaemon(true);
            return t;
        });
        resources.own("timers", scheduler::shutdownNow);
        cluster.follow(scheduler);
        // Listings an abort is checked with: rare, blocking, and never on the loop's thread.
        ExecutorService checks = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "object-processor-checks");
            t.setDaemon(true);
            return t;
        });
        resources.own("checks", checks::shutdownNow);
        // Pause and dry run, as operators set them: followed by a watch, and every task held until they are known.
        ControlsWatch watch = resources.own(ControlsWatch.start(zookeeper));
        BucketControls controls = BucketControls.following(watch, cluster);
        DeleteCaller caller = new DeleteCaller(gateway, scheduler, settings, metrics, cluster::observed);
        FilerClock filerTime = FilerClock.of(filer, clock, FilerClock.DEFAULT_MAX_AGE);
        resources.own("clock skew gauge", Metrics.bind(meters, filerTime));
        // Read on a schedule too, so that the gauge (and the log line on a skew) follows the clocks when no task comes.
        scheduler.scheduleWithFixedDelay(() -> filerTime.now().exceptionally(error -> null), 0,
                FilerClock.DEFAULT_MAX_AGE.toMillis() / 3, TimeUnit.MILLISECONDS);
        ActionRunner runner = new ActionRunner(
                new CurrentRules(filer, config.ruleReader(), settings.rulesMaxAge(), System::nanoTime),
                new UploadLeftovers(filer), new VersionCheck(filer), caller,
                new OutcomePolicy(settings.retryLaterMaxAttempts(), settings.faultMaxAttempts()), checks, filerTime,
                controls, System::nanoTime);
        TaskRecorder recorder = new TaskRecorder(producer, topics.lifecycleEvents(), topics.objectTasksDlq(),
                topics.bucketTasks());
        // Its own thread: sending an owed walk waits for Kafka, which the filer checks must not wait behind.
        ExecutorService settling = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "object-processor-owed-walks");
            t.setDaemon(true);
            return t;
        });
        resources.own("owed walks", settling::shutdownNow);
        OwedWalks owedWalks = new OwedWalks(new LifecycleControls(zookeeper.client()),
                new OwedWalkNotes(zookeeper.client()), watch::current, recorder::walk, settling, clock,
                "object-processor " + ManagementFactory.getRuntimeMXBean().getName());
        watch.onChange(owedWalks::controlsChanged);
        loop = new TaskLoop(consumer, topics.objectTasks().name(),
                new TaskDecoder(topics.objectTasks().valueSerde().deserializer()), caller, runner, recorder,
                settings, metrics, new Lateness(meters, latenessSettings, filerTime.asClock()),
                scheduler, clock, controls, owedWalks);
        worker = startWorker("object-processor-loop", () -> loop.run(() -> running));
        resources.own(CommittedLagGauge.start(config.adminProperties(), meters,
                ConsumerGroups.from(config).objectProcessor(topics), CommittedLagGauge.DEFAULT_INTERVAL));
        DeadLetters deadLetters = new DeadLetters(config);
        resources.own("parked tasks gauge", ParkedGauge.start(() -> deadLetters.countParked(Duration.ofSeconds(30)),
                config.millis(ObjectProcessorSettings.DLQ_COUNT_INTERVAL_MS), meters));
        resources.own(StatusLog.start("object-processor",
                config.millis(ObjectProcessorSettings.STATUS_INTERVAL_MS), log, metrics::statusLine));
    }

    /** The group's consumer: manual commits of finished tasks only, and only committed transactional output. */
    static Map<String, Object> consumerProperties(TidemarkConfig config) {
        Map<String, Object> properties = KafkaClients.groupConsumer(config.consumerProperties(),
                ConsumerGroups.from(config).objectProcessor());
        // Never a silent jump: a new group starts at the beginning, and a position retention has deleted is logged,
        // counted and alerted on before the loop moves on (TaskLoop#poll).
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        return properties;
    }

    /** Ready once the loop polls, while the S3 gateway serves LifecycleDelete and the filer answers. */
    @Override
    protected boolean readinessCheck() {
        TaskLoop l = loop;
        ClusterCheck c = cluster;
        return l != null && l.polling() && c != null && c.ready();
    }

    @Override
    protected void doStop() throws Exception {
        running = false;
        // The loop lets its calls in flight finish and commits; only then are its clients closed under it.
        stopWorker(worker, config.shutdownTimeout());
        resources.close();
    }
}
