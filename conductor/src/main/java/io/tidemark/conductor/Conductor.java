package io.tidemark.conductor;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.service.Metrics;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The connections a conductor needs — ZooKeeper, a Kafka admin client and an idempotent producer — and the pass
 * built on them; {@code --once} opens one, runs a pass and closes it, the scheduled service keeps one open.
 */
public final class Conductor implements AutoCloseable {

    private final ZooKeeperConnection zookeeper;
    private final Admin admin;
    private final KafkaProducer<byte[], byte[]> producer;
    private final List<AutoCloseable> bindings = new ArrayList<>();
    private final ConductorPass pass;
    private final ConductorMetrics metrics;

    private Conductor(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        TopicRegistry topics = TopicRegistry.from(config);
        List<ConductorPass.Gate> gates = ConductorSettings.gates(config, topics);
        this.metrics = new ConductorMetrics(meters, gates.stream().map(ConductorPass.Gate::group).toList());
        this.admin = Admin.create(config.adminProperties());
        try {
            new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR))
                    .ensure(List.of(topics.bucketTasks()));
            this.zookeeper = ZooKeeperConnection.start(config);
        } catch (RuntimeException e) {
            admin.close();
            throw e;
        }
        this.producer = new KafkaProducer<>(producerProperties(config), new ByteArraySerializer(),
                new ByteArraySerializer());
        bindings.add(Metrics.bind(meters, producer));
        this.pass = new ConductorPass(zookeeper.client(), producer, topics.bucketTasks(), new GroupLag(admin),
                gates, ConductorSettings.pass(config), metrics, clock);
    }

    public static Conductor open(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        return new Conductor(config, clock, meters);
    }

    static Map<String, Object> producerProperties(TidemarkConfig config) {
        Map<String, Object> properties = config.producerProperties();
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // One request in flight: see ObjectProcessorService (KAFKA-15591 on a topic created a moment ago).
        properties.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return properties;
    }

    /** Runs one walker pass. */
    public PassReport runPass() {
        return pass.run();
    }

    public ConductorMetrics metrics() {
        return metrics;
    }

    boolean connected() {
        return zookeeper.connected();
    }

    @Override
    public void close() {
        for (AutoCloseable binding : bindings) {
            try {
                binding.close();
            } catch (Exception ignored) {
                // Meter bindings hold no resources worth failing a shutdown over.
            }
        }
        producer.close(Duration.ofSeconds(5));
        zookeeper.close();
        admin.close(Duration.ofSeconds(5));
    }
}
