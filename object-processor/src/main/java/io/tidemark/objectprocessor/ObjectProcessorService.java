package io.tidemark.objectprocessor;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
import io.tidemark.service.StatusLog;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tidemark object-processor}: one member of the consumer group {@code <prefix>object-processor}, running a
 * {@link TaskLoop} on a thread of its own. Ready once the loop polls; a failure of the loop (Kafka refusing the
 * audit trail) fails the service. SIGTERM lets calls in flight finish within half the shutdown timeout, commits
 * what finished, and leaves the group.
 */
public final class ObjectProcessorService extends ManagedService {

    private static final Logger log = LoggerFactory.getLogger(ObjectProcessorService.class);

    private final TidemarkConfig config;
    private final Clock clock;
    private final MeterRegistry meters;
    private final ProcessorMetrics metrics;
    private final ProcessorSettings settings;
    private final List<AutoCloseable> bindings = new ArrayList<>();

    private volatile boolean running;
    private volatile KafkaConsumer<byte[], byte[]> consumer;
    private volatile KafkaProducer<byte[], byte[]> producer;
    private volatile LifecycleDeleteClient gateway;
    private volatile ScheduledExecutorService scheduler;
    private volatile TaskLoop loop;
    private volatile Thread worker;
    private volatile StatusLog statusLog;

    public ObjectProcessorService(TidemarkConfig config, Clock clock, MeterRegistry meters) {
        super("object-processor");
        this.config = config;
        this.clock = clock;
        this.meters = meters;
        this.metrics = new ProcessorMetrics(meters);
        this.settings = ProcessorSettings.from(config);
    }

    public ProcessorMetrics metrics() {
        return metrics;
    }

    @Override
    protected void doStart() {
        running = true;
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, config.getShort(TidemarkConfig.TOPIC_REPLICATION_FACTOR))
                    .ensure(List.of(topics.objectTasks(), topics.objectTasksDlq(), topics.lifecycleEvents()));
        }
        consumer = new KafkaConsumer<>(consumerProperties(config), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        producer = new KafkaProducer<>(producerProperties(config), new ByteArraySerializer(), new ByteArraySerializer());
        bindings.add(Metrics.bind(meters, consumer));
        bindings.add(Metrics.bind(meters, producer));
        gateway = LifecycleDeleteClient.connect(config.getString(TidemarkConfig.S3_GRPC_ADDRESS), config.grpcTls(),
                config.grpcDeadline());
        scheduler = Executors.newScheduledThreadPool(2, r -> {
            Thread t = new Thread(r, "object-processor-timers");
            t.setDaemon(true);
            return t;
        });
        loop = new TaskLoop(consumer, topics.objectTasks().name(),
                new TaskDecoder(topics.objectTasks().valueSerde().deserializer()),
                new DeleteCaller(gateway, scheduler, settings, metrics),
                new TaskRecorder(producer, topics.lifecycleEvents(), topics.objectTasksDlq()),
                settings, metrics, scheduler, clock);
        worker = new Thread(() -> {
            try {
                loop.run(() -> running);
            } catch (RuntimeException e) {
                fail(e);
            }
        }, "object-processor-loop");
        worker.start();
        statusLog = StatusLog.start("object-processor",
                config.millis(TidemarkConfig.OBJECT_PROCESSOR_STATUS_INTERVAL_MS), log, metrics::statusLine);
    }

    /** The group's consumer: manual commits of finished tasks only, and only committed transactional output. */
    static Map<String, Object> consumerProperties(TidemarkConfig config) {
        Map<String, Object> properties = config.consumerProperties();
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, ProcessorSettings.groupId(config));
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.putIfAbsent(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return properties;
    }

    /**
     * The producer of audit records and dead letters. One request in flight per connection by default: Kafka 4.3's
     * broker accepts any first sequence number on a partition with no producer state, so when a request reaches a
     * partition created a moment ago before the broker applied it (NOT_LEADER_OR_FOLLOWER) and the next request
     * does not, the first one's records can never be written and are lost when their delivery timeout ends
     * (KAFKA-15591, seen here on the embedded broker). With one request in flight nothing overtakes a retry.
     */
    public static Map<String, Object> producerProperties(TidemarkConfig config) {
        Map<String, Object> properties = config.producerProperties();
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        return properties;
    }

    @Override
    protected boolean readinessCheck() {
        TaskLoop l = loop;
        return l != null && l.polling();
    }

    @Override
    protected void doStop() throws Exception {
        running = false;
        stopWorker(worker, config.shutdownTimeout());
        if (statusLog != null) {
            statusLog.close();
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        for (AutoCloseable binding : bindings) {
            binding.close();
        }
        if (producer != null) {
            producer.close(Duration.ofSeconds(5));
        }
        if (consumer != null) {
            consumer.close(Duration.ofSeconds(5));
        }
        if (gateway != null) {
            gateway.close();
        }
    }
}
