package io.tidemark.populator;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
import io.tidemark.service.OwnedResources;
import io.tidemark.service.StatusLog;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tidemark populator}: any number of instances join a Curator leader latch; the leader runs
 * {@link MetaLogTailer} terms until it loses leadership (ZooKeeper SUSPENDED or LOST end a term before the
 * session can expire and a successor be chosen) or is fenced by a successor's transactional producer. A term that
 * fails while ZooKeeper names another leader stands down whatever the error (a successor's epoch bump does not
 * always reach the old leader as a fencing error); any other failure starts a new term from the committed
 * checkpoint after a capped backoff. Nothing but a stop ends the service.
 */
public final class PopulatorService extends ManagedService {

    private static final Logger log = LoggerFactory.getLogger(PopulatorService.class);

    private final TidemarkConfig config;
    private final Clock clock;
    private final MeterRegistry meters;
    private final PopulatorMetrics metrics;
    private final PopulatorSettings settings;
    private final String instanceId;

    private volatile boolean running;
    private volatile ZooKeeperConnection zookeeper;
    private volatile FilerClient filer;
    private volatile FilerDiscovery discovery;
    private final Function<CuratorFramework, Leadership> elections;
    private volatile Leadership leadership;
    private volatile Thread worker;
    private final OwnedResources resources = new OwnedResources("populator");

    public PopulatorService(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        this(config, clock, meters, null);
    }

    /** @param elections how an instance joins the leader election; {@code null} for the Curator latch */
    PopulatorService(TidemarkConfig config, Clock clock, MeterRegistry meters,
                     Function<CuratorFramework, Leadership> elections) {
        super("populator");
        this.config = config;
        this.clock = clock;
        this.meters = meters;
        this.metrics = new PopulatorMetrics(meters, clock);
        this.settings = PopulatorSettings.from(config);
        this.instanceId = ManagementFactory.getRuntimeMXBean().getName();
        this.elections = elections != null ? elections : zk -> new LatchLeadership(zk, instanceId);
    }

    public PopulatorMetrics metrics() {
        return metrics;
    }

    @Override
    protected void doStart() throws Exception {
        running = true;
        zookeeper = resources.own(ZooKeeperConnection.start(config));
        // First of all: a service that would decide otherwise than the rest of the cluster does nothing.
        LifecycleSettings.check(zookeeper.client(), config, name(), clock);
        filer = resources.own(FilerClient.connect(config.getString(TidemarkConfig.FILER_ADDRESS), config.grpcTls(),
                config.grpcDeadline()));
        discovery = resources.own(FilerDiscovery.from(config));
        leadership = resources.own("leadership", elections.apply(zookeeper.client()));
        worker = startWorker("populator-tailer", this::work);
        resources.own(StatusLog.start("populator", config.millis(PopulatorSettings.STATUS_INTERVAL_MS), log,
                metrics::statusLine));
    }

    private void work() {
        MetaLogTailer tailer = tailer(config, filer, discovery, zookeeper.client(), clock, metrics, meters);
        Duration backoff = Duration.ofMillis(100);
        while (running) {
            try {
                Optional<String> leaderNode = leadership.awaitLeading(Duration.ofSeconds(1));
                if (leaderNode.isEmpty()) {
                    metrics.leader(false);
                    metrics.status(PopulatorStatus.STANDBY);
                    continue;
                }
                if (!confirmedLeader()) {
                    // The latch says this instance leads, ZooKeeper says otherwise (its session went while it was
                    // paused or cut off): a term now would fence the real leader's producer.
                    log.warn("populator {} believes it leads but ZooKeeper names another leader; rejoining the "
                            + "election", instanceId);
                    metrics.stoodDown(TermFailure.SUPERSEDED);
                    leadership.rejoin();
                    continue;
                }
                metrics.leader(true);
                metrics.status(PopulatorStatus.LEADING);
                metrics.termStarted();
                log.info("populator {} leads; tailing the filer meta-log", instanceId);
                tailer.run(() -> running && leadership.holds(), leaderNode.get());
                backoff = Duration.ofMillis(100);
                metrics.status(running ? PopulatorStatus.STANDBY : PopulatorStatus.STOPPED);
                log.info("populator {} no longer leads", instanceId);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            } catch (Exception e) {
                TermFailure failure = TermFailure.of(e, leadership::confirmed);
                if (failure != TermFailure.RETRY) {
                    // Another instance leads now, whatever this one last heard: rejoin the election at the back
                    // instead of starting a term whose InitProducerId would fence the leader in turn.
                    log.warn("populator {}: its term failed and {}; rejoining the election: {}", instanceId,
                            failure == TermFailure.FENCED ? "a newer leader fenced its producer"
                                    : "ZooKeeper names another leader", e.toString());
                    metrics.stoodDown(failure);
                    leadership.rejoin();
                    continue;
                }
                metrics.status(PopulatorStatus.RETRYING);
                log.error("populator term failed: {}; retrying from the checkpoint in {} ms", e.toString(),
                        backoff.toMillis(), e);
                if (!sleep(backoff)) {
                    break;
                }
                backoff = min(backoff.multipliedBy(2), settings.maxBackoff());
            } finally {
                // The status stays as the term left it (retrying after a failure) until the next round decides.
                metrics.leader(leadership.holds());
            }
        }
        metrics.leader(false);
        metrics.status(PopulatorStatus.STOPPED);
    }

    /** A term starts only on ZooKeeper's word read now; a read that fails starts none (the next round asks again). */
    private boolean confirmedLeader() {
        try {
            return leadership.confirmed();
        } catch (Exception e) {
            log.warn("populator {} cannot confirm its leadership with ZooKeeper: {}", instanceId, e.toString());
            return false;
        }
    }

    /**
     * The tailer wired to Kafka: each term checks the topics (once per process), opens the transactional producer
     * and reads the committed state. Tests build tailers the same way.
     */
    static MetaLogTailer tailer(TidemarkConfig config, FilerClient filer, FilerDiscovery discovery,
                                CuratorFramework zookeeper, Clock clock, PopulatorMetrics metrics, MeterRegistry meters) {
        TopicRegistry topics = TopicRegistry.from(config);
        PopulatorSettings settings = PopulatorSettings.from(config);
        AtomicBoolean topicsChecked = new AtomicBoolean();
        Supplier<TransactionalPublisher> publishers = () -> {
            if (!topicsChecked.get()) {
                long began = System.nanoTime();
                try (Admin admin = Admin.create(config.adminProperties())) {
                    new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR)).ensure(topics.all());
                }
                topicsChecked.set(true);
                log.info("topics checked in {} ms", (System.nanoTime() - began) / 1_000_000);
            }
            TransactionalPublisher publisher = TransactionalPublisher.open(config.producerProperties(),
                    transactionalId(config), topics, config.getInt(PopulatorSettings.RECORD_MAX_BYTES));
            publisher.closing(Metrics.bind(meters, publisher.producer()));
            return publisher;
        };
        Supplier<CommittedState> state = () -> CommittedState.read(config.consumerProperties(), topics,
                settings.kafkaTimeout());
        // Several filers: each tailed on its own, through its own client.
        return new MetaLogTailer(settings, filer, new BucketRegistry(zookeeper, config.ruleReader()), publishers, state,
                config.ruleReader(), ShardFunction.withBits(config.shardBits()), clock, metrics, discovery,
                address -> FilerClient.connect(address, config.grpcTls(), config.grpcDeadline()));
    }


    /** One id for every instance sharing the topics: that is what lets a new leader fence the old one. */
    public static String transactionalId(TidemarkConfig config) {
        return config.topicPrefix() + "populator";
    }

    private boolean sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
            return running;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    @Override
    protected boolean readinessCheck() {
        return zookeeper != null && zookeeper.connected() && metrics.status() != PopulatorStatus.RETRYING;
    }

    @Override
    protected void doStop() throws Exception {
        running = false;
        // The tailer checks running at least every poll, aborts its open transaction and returns.
        stopWorker(worker, config.shutdownTimeout());
        resources.close();
        log.info(metrics.statusLine());
    }
}
