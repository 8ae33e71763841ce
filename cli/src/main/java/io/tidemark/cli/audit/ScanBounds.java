package io.tidemark.cli.audit;

import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.TopicPartition;

/**
 * The stretch of each partition a window of time covers, found from the broker's time index instead of by reading:
 * from the first record written at or after {@code since} up to (not including) the first written at or after
 * {@code until}, or the end as it is when the scan starts. The end is the last stable offset for a
 * {@code read_committed} consumer, so a scan never waits on a transaction still open, and events written while it
 * runs are not chased.
 */
record ScanBounds(Map<TopicPartition, Long> from, Map<TopicPartition, Long> to) {

    ScanBounds {
        from = Map.copyOf(from);
        to = Map.copyOf(to);
    }

    /** The bounds of the given partitions, which the consumer must already be assigned. */
    static ScanBounds find(Consumer<?, ?> consumer, Collection<TopicPartition> partitions, Instant since,
                           Instant until, Duration timeout) {
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        Map<TopicPartition, OffsetAndTimestamp> atSince = consumer.offsetsForTimes(at(partitions, since), timeout);
        Map<TopicPartition, OffsetAndTimestamp> atUntil = until == null ? Map.of()
                : consumer.offsetsForTimes(at(partitions, until), timeout);
        Map<TopicPartition, Long> from = new HashMap<>();
        Map<TopicPartition, Long> to = new HashMap<>();
        for (TopicPartition tp : partitions) {
            long last = end.get(tp);
            // No record at or after the time: nothing of the window is in this partition (or nothing after it).
            from.put(tp, Math.min(offset(atSince.get(tp), last), last));
            to.put(tp, Math.min(offset(atUntil.get(tp), last), last));
        }
        return new ScanBounds(from, to);
    }

    /** The partitions with anything to read. */
    Set<TopicPartition> nonEmpty() {
        return from.keySet().stream().filter(tp -> from.get(tp) < to.get(tp)).collect(Collectors.toSet());
    }

    /** How many offsets the bounds span: records, and the transaction markers between them. */
    long span() {
        return from.keySet().stream().mapToLong(tp -> Math.max(0, to.get(tp) - from.get(tp))).sum();
    }

    private static long offset(OffsetAndTimestamp found, long otherwise) {
        return found == null ? otherwise : found.offset();
    }

    private static Map<TopicPartition, Long> at(Collection<TopicPartition> partitions, Instant time) {
        return partitions.stream().collect(Collectors.toMap(tp -> tp, tp -> time.toEpochMilli()));
    }
}
