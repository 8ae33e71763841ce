package io.tidemark.localcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.curator.framework.state.ConnectionState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ZooKeeperConnectionTest {

    @TempDir
    Path dataDir;

    @Test
    void shouldSurviveAZooKeeperCrashAndReportEveryStateChange() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().mode(LocalCluster.Mode.CHILD_PROCESSES).dataDir(dataDir)
                .emulator(false).externalKafka("unused:9092").start()) {
            TidemarkConfig config = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                    "zookeeper.chroot", "/tidemark-it", "zookeeper.session.timeout.ms", "4000",
                    "zookeeper.connection.timeout.ms", "2000"));
            List<ConnectionState> seen = new CopyOnWriteArrayList<>();
            try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
                zk.onStateChange(seen::add);
                assertThat(zk.awaitConnected(Duration.ofSeconds(10))).isTrue();
                zk.client().create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.bucket("photos"),
                        "{}".getBytes(StandardCharsets.UTF_8));

                // A short outage: the session survives.
                cluster.zookeeper().kill();
                await().atMost(Duration.ofSeconds(10)).until(() -> seen.contains(ConnectionState.SUSPENDED));
                assertThat(zk.connected()).isFalse();
                cluster.restartZooKeeper(false);
                await().atMost(Duration.ofSeconds(20)).until(zk::connected);
                assertThat(seen).contains(ConnectionState.RECONNECTED);

                // Longer than the session timeout: the session is lost, and a new one is made.
                cluster.zookeeper().kill();
                await().atMost(Duration.ofSeconds(20)).until(() -> seen.contains(ConnectionState.LOST));
                cluster.restartZooKeeper(false);
                await().atMost(Duration.ofSeconds(30)).until(zk::connected);
                assertThat(new String(zk.client().getData().forPath(ZooKeeperPaths.bucket("photos")),
                        StandardCharsets.UTF_8)).isEqualTo("{}");
            }
            assertThat(seen).containsSubsequence(ConnectionState.SUSPENDED, ConnectionState.RECONNECTED,
                    ConnectionState.SUSPENDED, ConnectionState.LOST, ConnectionState.RECONNECTED);
        }
    }
}
