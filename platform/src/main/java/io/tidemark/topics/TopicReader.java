package io.tidemark.topics;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads ranges of a topic's partitions: a whole topic from its beginning to the end offsets seen at the start (how
 * state kept in a compacted topic is loaded, and how tests see what was committed), or any window of offsets. With
 * {@code read_committed} the end is the last stable offset, so records of open transactions are neither read nor
 * waited for.
 */
public final class TopicReader {

    private TopicReader() {
    }

    public static void readToEnd(org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer, String topic,
                                 int partitions, Duration timeout, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        List<TopicPartition> all = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
        // Assigned before asking: a read-committed consumer keeps each last stable offset it is told of, and warns of
        // every partition it is not assigned.
        consumer.assign(all);
        read(consumer, consumer.beginningOffsets(all, timeout), consumer.endOffsets(all, timeout), timeout, sink);
    }

    /**
     * Every committed value of a topic from its beginning to its end as of now, read with a consumer of its own
     * (no group, {@code read_committed}).
     */
    public static <V> List<V> committedValues(Map<String, Object> consumerProperties, TopicSpec<?, V> topic,
                                              Duration timeout) {
        Map<String, Object> properties = KafkaClients.committedReader(consumerProperties);
        List<V> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            readToEnd(consumer, topic.name(), topic.partitions(), timeout,
                    r -> values.add(topic.valueSerde().deserializer().deserialize(topic.name(), r.value())));
        }
        return values;
    }

    /** How many committed records a topic holds now (transaction markers are not records), read with its own consumer. */
    public static long count(Map<String, Object> consumerProperties, TopicSpec<?, ?> topic, Duration timeout) {
        Map<String, Object> properties = KafkaClients.committedReader(consumerProperties);
        long[] count = {0};
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            readToEnd(consumer, topic.name(), topic.partitions(), timeout, r -> count[0]++);
        }
        return count[0];
    }

    /** Hands over every record of each partition from its {@code from} offset up to (not including) its end. */
    public static void read(org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer,
                            Map<TopicPartition, Long> from, Map<TopicPartition, Long> end, Duration timeout,
                            Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        consumer.assign(from.keySet());
        from.forEach(consumer::seek);
        Instant deadline = Instant.now().plus(timeout);
        while (from.keySet().stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException("reading " + from.keySet() + " took longer than " + timeout);
            }
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                if (r.offset() < end.get(new TopicPartition(r.topic(), r.partition()))) {
                    sink.accept(r);
                }
            }
        }
    }
}
