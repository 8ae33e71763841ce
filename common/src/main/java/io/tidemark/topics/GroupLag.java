package io.tidemark.topics;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * A consumer group's position on its topics, read from Kafka at the moment it is asked — the figures Kafka's
 * consumer-groups tool prints: per partition the committed offset, the log-end offset and the lag between them.
 * A partition where the group has committed nothing counts from the start of its log.
 */
public final class GroupLag {

    private static final long TIMEOUT_SECONDS = 30;

    /** @param committed the group's committed offset, or -1 when it has none */
    public record Partition(String group, String topic, int partition, long committed, long end, long lag) {
    }

    private final Admin admin;

    public GroupLag(Admin admin) {
        this.admin = admin;
    }

    /** Every partition of {@code topics} (those that exist), in topic and partition order. */
    public List<Partition> partitions(String group, List<String> topics) throws Exception {
        List<TopicPartition> partitions = existing(topics);
        if (partitions.isEmpty()) {
            return List.of();
        }
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest());
        Map<TopicPartition, Long> starts = offsets(partitions, OffsetSpec.earliest());
        List<Partition> rows = new ArrayList<>();
        for (TopicPartition tp : partitions) {
            OffsetAndMetadata position = committed.get(tp);
            long from = position == null ? starts.get(tp) : Math.max(position.offset(), starts.get(tp));
            long end = ends.get(tp);
            rows.add(new Partition(group, tp.topic(), tp.partition(), position == null ? -1 : position.offset(), end,
                    Math.max(0, end - from)));
        }
        rows.sort(Comparator.comparing(Partition::topic).thenComparingInt(Partition::partition));
        return rows;
    }

    /** The group's total lag on {@code topics}. */
    public long total(String group, List<String> topics) throws Exception {
        return partitions(group, topics).stream().mapToLong(Partition::lag).sum();
    }

    /** Records {@code topic} holds now: end less start over its partitions; 0 when it does not exist. */
    public long records(String topic) throws Exception {
        List<TopicPartition> partitions = existing(List.of(topic));
        if (partitions.isEmpty()) {
            return 0;
        }
        Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest());
        Map<TopicPartition, Long> starts = offsets(partitions, OffsetSpec.earliest());
        return partitions.stream().mapToLong(tp -> Math.max(0, ends.get(tp) - starts.get(tp))).sum();
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

    private Map<TopicPartition, Long> offsets(List<TopicPartition> partitions, OffsetSpec spec) throws Exception {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(p -> request.put(p, spec));
        Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request).all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, Long> offsets = new HashMap<>();
        result.forEach((tp, info) -> offsets.put(tp, info.offset()));
        return offsets;
    }
}
