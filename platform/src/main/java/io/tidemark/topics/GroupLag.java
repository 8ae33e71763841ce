package io.tidemark.topics;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A consumer group's position on its topics, read from Kafka at the moment it is asked. Two figures per partition:
 * <ul>
 *   <li>{@code lag}, what Kafka's consumer-groups tool prints: log-end offset less committed offset. On a topic
 *   written in transactions it counts commit markers too, and a group that committed after a partition's last record
 *   sits before that record's marker until it reads again — so an idle exactly-once pipeline shows up to one per
 *   partition, and the figure grows with the partitions, not with the work.</li>
 *   <li>{@code backlog}, the records a read-committed consumer of the group has still to process: between the
 *   committed offset and the last stable offset, markers and aborted records left out. Where that stretch is short
 *   it is counted by reading it; where it is long the offset difference up to the last stable offset is a close
 *   estimate ({@code backlogCounted} false), and reading it would cost what it measures.</li>
 * </ul>
 * A partition where the group has committed nothing counts from the start of its log: work a new member would do.
 */
public final class GroupLag {

    private static final long TIMEOUT_SECONDS = 30;
    /** A partition whose stretch past the committed offset is at most this long has its records counted. */
    static final long MOST_COUNTED_PER_PARTITION = 10_000;
    /** Counting stops being worth it beyond this many offsets in all; the rest is estimated. */
    private static final long MOST_COUNTED = 200_000;
    private static final Duration COUNT_TIME = Duration.ofSeconds(10);

    /**
     * @param committed      the group's committed offset, or -1 when it has none
     * @param lag            end less the committed offset (or the log start): the consumer-groups tool's LAG
     * @param backlog        records still to process, read committed
     * @param backlogCounted whether {@code backlog} was counted record by record, or estimated from offsets
     */
    public record Partition(String group, String topic, int partition, long committed, long end, long lag,
                            long backlog, boolean backlogCounted) {

        /** A partition known by its offsets only: its backlog is the offset difference. */
        public Partition(String group, String topic, int partition, long committed, long end, long lag) {
            this(group, topic, partition, committed, end, lag, lag, false);
        }
    }

    private final Admin admin;
    private final Map<String, Object> consumerProperties;

    /** Reads offsets only: backlogs are estimated from the last stable offsets. */
    public GroupLag(Admin admin) {
        this(admin, null);
    }

    /**
     * @param consumerProperties the connection settings of a consumer that counts short backlogs (no group is
     *                           joined and nothing is committed), or {@code null} to estimate every backlog
     */
    public GroupLag(Admin admin, Map<String, Object> consumerProperties) {
        this.admin = admin;
        this.consumerProperties = consumerProperties;
    }

    /** Every partition of {@code topics} (those that exist), in topic and partition order. */
    public List<Partition> partitions(String group, List<String> topics) throws Exception {
        List<Position> positions = positions(group, topics);
        if (positions.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, Long> stable = offsets(positions.stream().map(Position::partition).toList(),
                OffsetSpec.latest(), IsolationLevel.READ_COMMITTED);
        Map<TopicPartition, Range> toCount = new LinkedHashMap<>();
        long offsetsToCount = 0;
        for (Position p : positions) {
            long stretch = stable.get(p.partition()) - p.from();
            if (stretch > 0 && stretch <= MOST_COUNTED_PER_PARTITION) {
                toCount.put(p.partition(), new Range(p.from(), stable.get(p.partition())));
                offsetsToCount += stretch;
            }
        }
        Map<TopicPartition, Long> counted = consumerProperties == null || toCount.isEmpty()
                || offsetsToCount > MOST_COUNTED ? Map.of() : count(toCount);
        List<Partition> rows = new ArrayList<>();
        for (Position p : positions) {
            TopicPartition tp = p.partition();
            long estimate = Math.max(0, stable.get(tp) - p.from());
            Long records = estimate == 0 ? Long.valueOf(0) : counted.get(tp);
            rows.add(new Partition(group, tp.topic(), tp.partition(), p.committed(), p.end(), p.lag(),
                    records == null ? estimate : records, records != null));
        }
        return rows;
    }

    /** The group's total lag on {@code topics}: the consumer-groups tool's figure, markers included. */
    public long total(String group, List<String> topics) throws Exception {
        return totals(group, topics).lag();
    }

    /**
     * @param lag      the group's total lag, as {@link #total}
     * @param position the sum of its committed offsets, over the partitions it has committed on: it grows by what
     *                 the group finishes (never by retention moving a log's start), so its rate is the group's pace
     */
    public record Totals(long lag, long position) {
    }

    /** The group's total lag and position on {@code topics}, from one reading of the offsets. */
    public Totals totals(String group, List<String> topics) throws Exception {
        List<Position> positions = positions(group, topics);
        return new Totals(positions.stream().mapToLong(Position::lag).sum(),
                positions.stream().mapToLong(p -> Math.max(0, p.committed())).sum());
    }

    /** The records the group has still to process on {@code topics}, counted where that is cheap. */
    public long backlog(String group, List<String> topics) throws Exception {
        return partitions(group, topics).stream().mapToLong(Partition::backlog).sum();
    }

    /** Records {@code topic} holds now: end less start over its partitions; 0 when it does not exist. */
    public long records(String topic) throws Exception {
        List<TopicPartition> partitions = existing(List.of(topic));
        if (partitions.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Long> starts = offsets(partitions, OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED);
        return partitions.stream().mapToLong(tp -> Math.max(0, ends.get(tp) - starts.get(tp))).sum();
    }

    /**
     * A partition as offsets alone: the group's committed offset (-1 when none), where its work starts (the committed
     * offset, or the log start when that is later or there is none) and the log end.
     */
    private record Position(TopicPartition partition, long committed, long from, long end) {

        long lag() {
            return Math.max(0, end - from);
        }
    }

    /** The offsets of every partition of {@code topics} (those that exist), in topic and partition order. */
    private List<Position> positions(String group, List<String> topics) throws Exception {
        List<TopicPartition> partitions = existing(topics);
        if (partitions.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest(), IsolationLevel.READ_UNCOMMITTED);
        Map<TopicPartition, Long> starts = offsets(partitions, OffsetSpec.earliest(), IsolationLevel.READ_UNCOMMITTED);
        List<Position> positions = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata position = committed.get(tp);
            long start = starts.get(tp);
            positions.add(new Position(tp, position == null ? -1 : position.offset(),
                    position == null ? start : Math.max(position.offset(), start), ends.get(tp)));
        }
        positions.sort(Comparator.comparing((Position p) -> p.partition().topic())
                .thenComparingInt(p -> p.partition().partition()));
        return positions;
    }

    /** Offsets {@code from} (inclusive) to {@code to} (exclusive, a last stable offset). */
    private record Range(long from, long to) {
    }

    /**
     * Reads each range as a read-committed consumer would and counts what it returns. A partition not read to its end
     * in time is left out, to be estimated.
     */
    private Map<TopicPartition, Long> count(Map<TopicPartition, Range> ranges) {
        Map<String, Object> properties = KafkaClients.committedReader(consumerProperties);
        properties.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-backlog-" + System.nanoTime());
        Map<TopicPartition, Long> counts = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(ranges.keySet());
            ranges.forEach((tp, range) -> {
                consumer.seek(tp, range.from());
                counts.put(tp, 0L);
            });
            Set<TopicPartition> open = new HashSet<>(ranges.keySet());
            long deadline = System.nanoTime() + COUNT_TIME.toNanos();
            while (!open.isEmpty() && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    TopicPartition tp = new TopicPartition(record.topic(), record.partition());
                    if (record.offset() < ranges.get(tp).to()) {
                        counts.merge(tp, 1L, Long::sum);
                    }
                }
                // The position moves past markers and aborted records too, though poll returns none of them.
                for (TopicPartition tp : new ArrayList<>(open)) {
                    if (consumer.position(tp) >= ranges.get(tp).to()) {
                        open.remove(tp);
                    }
                }
                consumer.pause(ranges.keySet().stream().filter(tp -> !open.contains(tp)).toList());
            }
            open.forEach(counts::remove);
        }
        return counts;
    }

    private List<TopicPartition> existing(List<String> topics) throws Exception {
        List<TopicPartition> partitions = new ArrayList<>();
        for (String topic : topics) {
            TopicDescription description;
            try {
                description = admin.describeTopics(List.of(topic)).allTopicNames()
                        .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic);
            } catch (ExecutionException e) {
                if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                    continue;
                }
                throw e;
            }
            description.partitions().forEach(p -> partitions.add(new TopicPartition(topic, p.partition())));
        }
        return partitions;
    }

    private Map<TopicPartition, Long> offsets(List<TopicPartition> partitions, OffsetSpec spec,
                                              IsolationLevel isolation) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(p -> request.put(p, spec));
        Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request,
                new ListOffsetsOptions(isolation)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }
}
