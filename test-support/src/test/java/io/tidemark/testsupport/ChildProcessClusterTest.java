package io.tidemark.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.localcluster.ChildNode;
import io.tidemark.localcluster.LocalCluster;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessClusterTest {

    @TempDir
    Path dataDir;

    @Test
    void shouldKeepCommittedRecordsWhenKafkaIsKilledAndRestarted() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().mode(LocalCluster.Mode.CHILD_PROCESSES).dataDir(dataDir)
                .emulator(false).start()) {
            String bootstrap = cluster.kafkaBootstrapServers();
            assertThat(cluster.kafka()).isInstanceOf(ChildNode.class);
            KafkaRoundTrip.createTopic(bootstrap, "survivors", 1);
            KafkaRoundTrip.produceTransactionally(bootstrap, "survivors", List.of("1", "2"));
            cluster.restartKafka(true);
            assertThat(cluster.kafkaBootstrapServers()).as("a restart comes back on the same address").isEqualTo(bootstrap);
            KafkaRoundTrip.produceTransactionally(bootstrap, "survivors", List.of("3"));
            assertThat(KafkaRoundTrip.consumeCommitted(bootstrap, "survivors", 3)).containsExactly("1", "2", "3");

            String zk = cluster.zookeeperConnect();
            cluster.restartZooKeeper(true);
            assertThat(cluster.zookeeperConnect()).isEqualTo(zk);
        }
    }
}
