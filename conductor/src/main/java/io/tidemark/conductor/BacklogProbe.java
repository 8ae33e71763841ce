package io.tidemark.conductor;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/**
 * Reads a consumer group's backlog on one topic from Kafka itself at the moment it is asked (not a figure cached
 * by the group): per partition, the end offset less the group's committed offset, or less the start of the log
 * where the group has committed nothing yet.
 */
final class BacklogProbe {

    private static final long TIMEOUT_SECONDS = 30;

    private final Admin admin;

    BacklogProbe(Admin admin) {
        this.admin = admin;
    }

    /** Unconsumed records of {@code topic} for {@code group}; 0 when the topic does not exist yet. */
    long backlog(String group, String topic) throws Exception {
        TopicDescription description;
        try {
            description = admin.describeTopics(List.of(topic)).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .get(topic);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return 0;
            }
            throw e;
        }
        List<TopicPartition> partitions = description.partitions().stream()
                .map(p -> new TopicPartition(topic, p.partition())).toList();
        Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<TopicPartition, Long> ends = offsets(partitions, OffsetSpec.latest());
        Map<TopicPartition, Long> starts = offsets(partitions, OffsetSpec.earliest());
        long backlog = 0;
        for (TopicPartition partition : partitions) {
            OffsetAndMetadata position = committed.get(partition);
            long from = position == null ? starts.get(partition) : Math.max(position.offset(), starts.get(partition));
            backlog += Math.max(0, ends.get(partition) - from);
        }
        return backlog;
    }

    private Map<TopicPartition, Long> offsets(List<TopicPartition> partitions, OffsetSpec spec)
            throws InterruptedException, ExecutionException, TimeoutException {
        Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        partitions.forEach(p -> request.put(p, spec));
        Map<TopicPartition, ListOffsetsResultInfo> result = admin.listOffsets(request).all()
                .get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return result.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
    }
}
