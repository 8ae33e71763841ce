package io.tidemark.localcluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The settings a service is configured from: with several filers each records only the writes it received, so a
 * service must find them all; with one, the settings are what they always were. Kafka is "external" and never
 * contacted here, so only ZooKeeper and the emulator start.
 */
class ClusterSettingsTest {

    @Test
    void shouldNameTheMasterWhenTheEmulatorRunsSeveralFilers() {
        try (LocalCluster cluster = LocalCluster.builder().externalKafka("127.0.0.1:9").filers(3).start()) {
            assertThat(cluster.settings())
                    .containsEntry("filer.address", cluster.filerAddresses().get(0))
                    .containsEntry("filer.master.address", cluster.masterAddress());
        }
    }

    @Test
    void shouldLeaveTheMasterOutWithOneFiler() {
        try (LocalCluster cluster = LocalCluster.builder().externalKafka("127.0.0.1:9").start()) {
            assertThat(cluster.settings()).containsOnlyKeys("kafka.bootstrap.servers", "zookeeper.connect",
                    "filer.address", "s3.grpc.address");
        }
    }
}
