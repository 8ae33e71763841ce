package io.tidemark.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.localcluster.LocalCluster;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs against Kafka in a container where a Docker engine exists; skipped, not failed, where none does. */
@LocalClusterTest(kafka = LocalClusterTest.KafkaProvider.TESTCONTAINERS)
class TestcontainersProviderTest {

    @Test
    void shouldRoundTripOnContainerKafka(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        String topic = ns.topicPrefix() + "container";
        KafkaRoundTrip.createTopic(cluster.kafkaBootstrapServers(), topic, 1);
        KafkaRoundTrip.produceTransactionally(cluster.kafkaBootstrapServers(), topic, List.of("x"));
        assertThat(KafkaRoundTrip.consumeCommitted(cluster.kafkaBootstrapServers(), topic, 1)).containsExactly("x");
    }
}
