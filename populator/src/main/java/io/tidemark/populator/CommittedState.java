package io.tidemark.populator;

import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the populator's committed transactions say: the last checkpoint and the last known configuration of every
 * bucket. Read with {@code read_committed} after the producer's {@code initTransactions}, which settles any
 * transaction a previous leader left open, so the two are consistent with each other and with the meta-log.
 */
public record CommittedState(Optional<PopulatorCheckpoint> checkpoint, Map<String, BucketConfig> configs) {

    private static final Logger log = LoggerFactory.getLogger(CommittedState.class);

    public CommittedState {
        configs = Map.copyOf(configs);
    }

    /** Reads both compacted topics to their end. */
    public static CommittedState read(Map<String, Object> consumerProperties, TopicRegistry topics, Duration timeout) {
        Map<String, Object> props = new HashMap<>(consumerProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-populator-state");
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            PopulatorCheckpoint[] last = new PopulatorCheckpoint[1];
            // An unreadable checkpoint is fatal: guessing an older one would publish events twice.
            readToEnd(consumer, topics.populatorCheckpoint(), timeout, false, (key, value) -> {
                if (PopulatorCheckpoint.KEY.equals(key)) {
                    last[0] = value;
                }
            });
            Map<String, BucketConfig> configs = new HashMap<>();
            // An unreadable config is skipped: the bucket's next event, or the registry check, brings it back.
            readToEnd(consumer, topics.bucketConfigs(), timeout, true, (bucket, config) -> {
                if (config == null) {
                    configs.remove(bucket);
                } else {
                    configs.put(bucket, config);
                }
            });
            return new CommittedState(Optional.ofNullable(last[0]), configs);
        }
    }

    private static <V> void readToEnd(Consumer<byte[], byte[]> consumer, TopicSpec<String, V> topic, Duration timeout,
                                      boolean skipUnreadable, BiConsumer<String, V> sink) {
        TopicReader.readToEnd(consumer, topic.name(), topic.partitions(), timeout, r -> {
            String key = topic.keySerde().deserializer().deserialize(topic.name(), r.key());
            V value;
            try {
                value = r.value() == null ? null : topic.valueSerde().deserializer().deserialize(topic.name(), r.value());
            } catch (RuntimeException e) {
                String where = topic.name() + "-" + r.partition() + "@" + r.offset() + " (key " + key + ")";
                if (!skipUnreadable) {
                    throw new IllegalStateException("unreadable record at " + where + ": " + e.getMessage(), e);
                }
                log.warn("skipping unreadable record at {}: {}", where, e.getMessage());
                return;
            }
            sink.accept(key, value);
        });
    }
}
