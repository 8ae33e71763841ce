package io.tidemark.bucketprocessor;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
import io.tidemark.service.OwnedResources;
import io.tidemark.service.StatusLog;
import io.tidemark.topics.CommittedLagGauge;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tidemark bucket-processor}: one member of the consumer group {@code <prefix>bucket-processor}, running a
 * {@link PageLoop} on a thread of its own with a transactional producer. Ready once the loop polls; a fenced
 * producer or another failure of the loop fails the service (a supervisor restarts it, and the pages whose
 * transaction did not commit are walked again). SIGTERM finishes the batch in hand and leaves the group.
 */
public final class BucketProcessorService extends ManagedService {

    private static final Logger log = LoggerFactory.getLogger(BucketProcessorService.class);

    private final TidemarkConfig config;
    private final Clock clock;
    private final MeterRegistry meters;
    private final BucketProcessorMetrics metrics;
    private final BucketProcessorSettings settings;
    private final OwnedResources resources = new OwnedResources("bucket-processor");

    private volatile boolean running;
    private volatile ZooKeeperConnection zookeeper;
    private volatile AutoCloseable producerBinding;
    private volatile PageLoop loop;
    private volatile Thread worker;

    public BucketProcessorService(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        super("bucket-processor");
        this.config = config;
        this.clock = clock;
        this.meters = meters;
        this.metrics = new BucketProcessorMetrics(meters);
        this.settings = BucketProcessorSettings.from(config);
    }

    public BucketProcessorMetrics metrics() {
        return metrics;
    }

    @Override
    protected void doStart() throws Exception {
        running = true;
        // First of all: a service that would decide otherwise than the rest of the cluster does nothing.
        zookeeper = resources.own(ZooKeeperConnection.start(config));
        LifecycleSettings.check(zookeeper.client(), config, name(), clock);
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR))
                    .ensure(List.of(topics.bucketTasks(), topics.objectTasks(), topics.rearm()));
        }
        FilerClient filer = resources.own(FilerClient.connect(config.getString(TidemarkConfig.FILER_ADDRESS),
                config.grpcTls(), config.grpcDeadline()));
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties(config, settings),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        resources.own("consumer", () -> consumer.close(Duration.ofSeconds(5)));
        resources.own("consumer metrics", Metrics.bind(meters, consumer));
        // The loop closes its producers; the metrics of the last one are unbound here.
        resources.own("producer metrics", () -> {
            AutoCloseable binding = producerBinding;
            if (binding != null) {
                binding.close();
            }
        });
        // Due-ness is judged on the filer's clock, which stamped what it is computed from (invariant 7): a host whose
        // clock runs ahead would send tasks early (the object processor holds those), one behind would walk past them.
        FilerClock filerTime = FilerClock.of(filer, clock, FilerClock.DEFAULT_MAX_AGE);
        PageWorker pages = new PageWorker(EntryLister.of(filer), filer.bucketsDirectory(),
                ShardFunction.withBits(config.shardBits()), settings.pageSize(), config.ruleReader(),
                filerTime::nowBlocking);
        loop = new PageLoop(consumer, this::newProducer, topics, pages::page,
                new WalkProgress(new WalkStates(zookeeper.client()), clock), metrics,
                new PageLoop.Limits(settings.retryBackoffMax(), settings.faultMaxAttempts(),
                        settings.transactionBound(), settings.transactionTimeout()), clock);
        worker = startWorker("bucket-processor-loop", () -> loop.run(() -> running));
        resources.own(CommittedLagGauge.start(config.adminProperties(), meters,
                ConsumerGroups.from(config).bucketProcessor(topics), CommittedLagGauge.DEFAULT_INTERVAL));
        resources.own(StatusLog.start("bucket-processor",
                config.millis(BucketProcessorSettings.STATUS_INTERVAL_MS), log, metrics::statusLine));
        startFreshness(new WalkFreshness(new LifecycleBuckets(zookeeper.client()), new WalkStates(zookeeper.client()),
                () -> ConductorPassRecord.read(zookeeper.client()), meters));
    }

    /**
     * A transactional producer ready for its first transaction, its metrics bound in place of the last one's: the
     * loop takes a new one when the coordinator aborted a transaction for its age.
     */
    private Producer<byte[], byte[]> newProducer() {
        KafkaProducer<byte[], byte[]> p = new KafkaProducer<>(producerProperties(config), new ByteArraySerializer(),
                new ByteArraySerializer());
        try {
            p.initTransactions();
        } catch (RuntimeException e) {
            p.close(Duration.ZERO);
            throw e;
        }
        AutoCloseable previous = producerBinding;
        producerBinding = Metrics.bind(meters, p);
        if (previous != null) {
            try {
                previous.close();
            } catch (Exception e) {
                log.debug("unbinding the last producer's metrics: {}", e.toString());
            }
        }
        return p;
    }

    /** Refreshes the per-bucket walk freshness on the status interval; a failed read keeps the last figures. */
    private void startFreshness(WalkFreshness freshness) {
        ScheduledExecutorService freshnessTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bucket-processor-walk-freshness");
            t.setDaemon(true);
            return t;
        });
        resources.own("walk freshness", freshnessTimer::shutdownNow);
        long interval = config.millis(BucketProcessorSettings.STATUS_INTERVAL_MS).toMillis();
        freshnessTimer.scheduleWithFixedDelay(() -> {
            try {
                freshness.refresh();
            } catch (Exception e) {
                log.warn("walk freshness: cannot read the registry or the walk states: {}", e.toString());
            }
        }, 0, interval, TimeUnit.MILLISECONDS);
    }

    /** The group's consumer: offsets commit only inside the page transactions; only committed tasks are read. */
    static Map<String, Object> consumerProperties(TidemarkConfig config, BucketProcessorSettings settings) {
        Map<String, Object> properties = KafkaClients.groupConsumer(config.consumerProperties(),
                ConsumerGroups.from(config).bucketProcessor());
        properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, settings.tasksPerTransaction());
        return properties;
    }

    /**
     * A transactional producer with an id of its own: zombie fencing comes from the consumer group's generation
     * passed with the offsets (KIP-447), so the id need not survive a restart.
     */
    static Map<String, Object> producerProperties(TidemarkConfig config) {
        return KafkaClients.transactionalProducer(config.producerProperties(),
                config.topicPrefix() + "bucket-processor-" + UUID.randomUUID());
    }

    @Override
    protected boolean readinessCheck() {
        PageLoop l = loop;
        return l != null && l.polling() && zookeeper != null && zookeeper.connected();
    }

    @Override
    protected void doStop() throws Exception {
        running = false;
        // The loop finishes the batch in hand; only then are its clients closed under it.
        stopWorker(worker, config.shutdownTimeout());
        resources.close();
    }
}
