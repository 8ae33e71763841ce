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
        read(consumer, consumer.beginningOffsets(all, timeout), consumer.endOffsets(all, timeout), timeout, sink);
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
