package io.tidemark.conductor;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.service.Metrics;
import io.tidemark.service.OwnedResources;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections a conductor needs — ZooKeeper, a Kafka admin client and an idempotent producer — and the pass
 * built on them; {@code --once} opens one, runs a pass and closes it, the scheduled service keeps one open.
 */
public final class Conductor implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Conductor.class);

    private final OwnedResources owned = new OwnedResources("conductor");
    private final ZooKeeperConnection zookeeper;
    private final ConductorPass pass;
    private final ConductorMetrics metrics;
    private final Clock clock;

    private Conductor(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        this.clock = clock;
        TopicRegistry topics = TopicRegistry.from(config);
        List<ConsumerGroups.Group> gates = ConductorSettings.gates(config, topics);
        this.metrics = new ConductorMetrics(meters, gates.stream().map(ConsumerGroups.Group::id).toList());
        try {
            // First of all: a conductor that would decide otherwise than the rest of the cluster does nothing.
            this.zookeeper = owned.own("ZooKeeper connection", ZooKeeperConnection.start(config));
            LifecycleSettings.check(zookeeper.client(), config, "conductor", clock);
            // Kafka's clients wait without bound in close(): each gets five seconds.
            Admin admin = Admin.create(config.adminProperties());
            owned.own("admin client", () -> admin.close(Duration.ofSeconds(5)));
            new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR))
                    .ensure(List.of(topics.bucketTasks()));
            KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                    KafkaClients.idempotentProducer(config.producerProperties()), new ByteArraySerializer(),
                    new ByteArraySerializer());
            owned.own("producer", () -> producer.close(Duration.ofSeconds(5)));
            owned.own("producer metrics", Metrics.bind(meters, producer));
            this.pass = new ConductorPass(zookeeper.client(), producer, topics.bucketTasks(), new GroupLag(admin),
                    gates, ConductorSettings.from(config), metrics, clock);
        } catch (RuntimeException e) {
            // Whatever opened before the failure closes now: nobody else holds it.
            owned.close();
            throw e;
        } catch (Exception e) {
            owned.close();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new IllegalStateException("cannot check the cluster's lifecycle settings in ZooKeeper: " + e, e);
        }
    }

    public static Conductor open(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        return new Conductor(config, clock, meters);
    }

    /**
     * Runs one walker pass and records it in ZooKeeper, whatever its outcome, for the long-running services and
     * {@code tidemark status} (a conductor run as a CronJob is scraped by no one).
     */
    public PassReport runPass() {
        PassReport report = pass.run();
        try {
            new ConductorPassRecord(clock.instant(), report.outcome().label(), report.seeded().size(),
                    report.underWay().size(), report.detail()).write(zookeeper.client());
        } catch (Exception e) {
            // The pass itself is done; the record says "no pass lately" until the next one can write it.
            log.warn("the pass could not be recorded in ZooKeeper ({}): {}", ZooKeeperPaths.CONDUCTOR_LAST_PASS,
                    e.toString());
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        return report;
    }

    public ConductorMetrics metrics() {
        return metrics;
    }

    boolean connected() {
        return zookeeper.connected();
    }

    @Override
    public void close() {
        owned.close();
    }
}
