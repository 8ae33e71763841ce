package io.tidemark.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.localcluster.LocalCluster;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import java.time.Duration;
import java.util.List;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;

@LocalClusterTest
class EmbeddedClusterTest {

    @Test
    void shouldCommitAndReadATransactionOnTheEmbeddedBroker(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        String topic = ns.topicPrefix() + "round-trip";
        KafkaRoundTrip.createTopic(cluster.kafkaBootstrapServers(), topic, 2);
        KafkaRoundTrip.produceTransactionally(cluster.kafkaBootstrapServers(), topic, List.of("a", "b", "c"));
        assertThat(KafkaRoundTrip.consumeCommitted(cluster.kafkaBootstrapServers(), topic, 3))
                .containsExactlyInAnyOrder("a", "b", "c");
    }

    @Test
    void shouldExposeEverySettingAsTheEnvironmentVariablesCommandsRead(LocalCluster cluster) {
        assertThat(cluster.environment()).containsOnlyKeys("TIDEMARK_KAFKA_BOOTSTRAP_SERVERS",
                "TIDEMARK_ZOOKEEPER_CONNECT", "TIDEMARK_FILER_ADDRESS", "TIDEMARK_S3_GRPC_ADDRESS",
                "TIDEMARK_EMULATOR_ADMIN_ADDRESS");
        assertThat(cluster.environment().values()).allMatch(v -> v.startsWith("127.0.0.1:"));
        try (FilerClient filer = FilerClient.connect(cluster.environment().get("TIDEMARK_FILER_ADDRESS"),
                GrpcTls.PLAINTEXT, Duration.ofSeconds(5))) {
            assertThat(filer.bucketsDirectory()).isEqualTo("/buckets");
        }
    }

    @Test
    void shouldServeZooKeeper(LocalCluster cluster) throws Exception {
        ZooKeeper zk = new ZooKeeper(cluster.zookeeperConnect(), 10_000, event -> { });
        try {
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!zk.getState().isConnected() && System.nanoTime() < deadline) {
                Thread.sleep(50);
            }
            assertThat(zk.getState().isConnected()).isTrue();
            assertThat(zk.exists("/zookeeper", false)).isNotNull();
        } finally {
            zk.close();
        }
    }

    @Test
    void shouldGiveEachTestClassItsOwnNamespace(ClusterNamespace ns) {
        assertThat(ns.topicPrefix()).startsWith("t").endsWith(".");
        assertThat(ns.zookeeperChroot()).startsWith("/tidemark-test-");
    }
}
