package io.tidemark.topics;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * The Kafka client recipes Tidemark's services use, in one place. Each takes the operator's settings for that kind
 * of client ({@code kafka.*} and {@code kafka.<client>.*}, as {@code TidemarkConfig} gives them), keeps them, and
 * then sets what the recipe cannot do without. Each returns a new map the caller may add to.
 */
public final class KafkaClients {

    private KafkaClients() {
    }

    /**
     * An idempotent producer with every write acknowledged by all in-sync replicas. One request in flight per
     * connection unless the operator sets otherwise: Kafka 4.3's broker accepts any first sequence number on a
     * partition with no producer state, so when a request reaches a partition created a moment ago before the broker
     * applied it (NOT_LEADER_OR_FOLLOWER) and the next request does not, the first one's records can never be written
     * and are lost when their delivery timeout ends (KAFKA-15591, seen here on the embedded broker). With one request
     * in flight nothing overtakes a retry.
     */
    public static Map<String, Object> idempotentProducer(Map<String, Object> producerProperties) {
        Map<String, Object> properties = new HashMap<>(producerProperties);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        return properties;
    }

    /**
     * A transactional producer: idempotent, acknowledged by all in-sync replicas, with the given transactional id.
     * Whether the id must survive a restart (so that a successor fences its predecessor) is the caller's choice.
     */
    public static Map<String, Object> transactionalProducer(Map<String, Object> producerProperties,
                                                            String transactionalId) {
        Map<String, Object> properties = new HashMap<>(producerProperties);
        properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        properties.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, 5);
        return properties;
    }

    /**
     * A member of a consumer group that commits its offsets itself (by hand or inside transactions) and reads only
     * committed records. Where a new group starts is the caller's to set ({@code auto.offset.reset}).
     */
    public static Map<String, Object> groupConsumer(Map<String, Object> consumerProperties, String groupId) {
        Map<String, Object> properties = new HashMap<>(consumerProperties);
        properties.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return properties;
    }

    /**
     * A consumer of its own, in no group, that reads only committed records: for reading a topic (or part of one)
     * to its end without moving anybody's offsets.
     */
    public static Map<String, Object> committedReader(Map<String, Object> consumerProperties) {
        Map<String, Object> properties = new HashMap<>(consumerProperties);
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        properties.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        return properties;
    }
}
