package io.tidemark.topics;

import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
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

    /** A record for this topic, key and value serialized with its serdes, on the partition its key hashes to. */
    public ProducerRecord<byte[], byte[]> record(K key, V value) {
        return new ProducerRecord<>(name, keySerde.serializer().serialize(name, key),
                valueSerde.serializer().serialize(name, value));
    }

    /** A record for this topic, key and value serialized with its serdes, on the given partition. */
    public ProducerRecord<byte[], byte[]> record(int partition, K key, V value) {
        return new ProducerRecord<>(name, partition, keySerde.serializer().serialize(name, key),
                valueSerde.serializer().serialize(name, value));
    }
}
