package io.tidemark.topics;

import java.util.Map;
import org.apache.kafka.common.serialization.Serde;

/**
 * One topic: its full name, the serdes of its keys and values, how many partitions it has and how it is cleaned,
 * plus any other topic settings. {@code sharded} topics are partitioned by {@link ShardPartitioner}.
 */
public record TopicSpec<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde, int partitions, String cleanupPolicy,
                              Map<String, String> configs, boolean sharded) {

    public TopicSpec {
        configs = Map.copyOf(configs);
    }
}
