package io.tidemark.topics;

import io.tidemark.seaweed.ShardFunction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;

/**
 * Puts a record keyed {@code bucket/logicalKey} on the partition equal to its shard, so every event and task of
 * one object shares a partition with SeaweedFS's own shard numbering. The shard bits follow the topic's partition
 * count (a power of two); a topic that is not one is a configuration error.
 */
public final class ShardPartitioner implements Partitioner {

    @Override
    public int partition(String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster cluster) {
        int partitions = cluster.partitionCountForTopic(topic);
        return shardOf(keyBytes == null ? "" : new String(keyBytes, StandardCharsets.UTF_8), partitions);
    }

    /** The shard of a {@code bucket/logicalKey} key among {@code partitions} (a power of two) shards. */
    public static int shardOf(String key, int partitions) {
        if (Integer.bitCount(partitions) != 1) {
            throw new IllegalStateException("a sharded topic needs a power-of-two partition count, not " + partitions);
        }
        int slash = key.indexOf('/');
        String bucket = slash < 0 ? key : key.substring(0, slash);
        String logicalKey = slash < 0 ? "" : key.substring(slash + 1);
        return ShardFunction.withBits(Integer.numberOfTrailingZeros(partitions)).shardOf(bucket, logicalKey);
    }

    /** The record key of an object: {@code bucket/logicalKey}. */
    public static String key(String bucket, String logicalKey) {
        return bucket + "/" + logicalKey;
    }

    @Override
    public void configure(Map<String, ?> configs) {
    }

    @Override
    public void close() {
    }
}
