package io.tidemark.topics;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;

/**
 * Reads a whole topic, every partition from its beginning to the end offsets seen at the start: how state kept
 * in a compacted topic is loaded, and how tests see what was committed. With {@code read_committed} the end is
 * the last stable offset, so records of open transactions are neither read nor waited for.
 */
public final class TopicReader {

    private TopicReader() {
    }

    public static void readToEnd(org.apache.kafka.clients.consumer.Consumer<byte[], byte[]> consumer, String topic,
                                 int partitions, Duration timeout, Consumer<ConsumerRecord<byte[], byte[]>> sink) {
        List<TopicPartition> assigned = IntStream.range(0, partitions).mapToObj(p -> new TopicPartition(topic, p)).toList();
        consumer.assign(assigned);
        consumer.seekToBeginning(assigned);
        Map<TopicPartition, Long> end = consumer.endOffsets(assigned, timeout);
        Instant deadline = Instant.now().plus(timeout);
        while (assigned.stream().anyMatch(tp -> consumer.position(tp, timeout) < end.get(tp))) {
            if (Instant.now().isAfter(deadline)) {
                throw new TimeoutException("reading " + topic + " to its end took longer than " + timeout);
            }
            consumer.poll(Duration.ofMillis(200)).forEach(sink);
        }
    }
}
