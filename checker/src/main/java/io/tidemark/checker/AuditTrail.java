package io.tidemark.checker;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** A run's audit trail: every record of {@code lifecycle-events} the object processor wrote, read to its end. */
final class AuditTrail {

    private AuditTrail() {
    }

    static List<LifecycleEvent> read(TidemarkConfig config) {
        TopicSpec<String, LifecycleEvent> topic = TopicRegistry.from(config).lifecycleEvents();
        List<LifecycleEvent> events = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                KafkaClients.committedReader(config.consumerProperties()), new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic.name(), Duration.ofSeconds(10)).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    events.add(topic.valueSerde().deserializer().deserialize(topic.name(), record.value()));
                }
            }
        }
        return events;
    }
}
