package io.tidemark.localcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.ControlsWatch;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controls as a processor follows them: known within moments of a change, and not known — every bucket held —
 * from the moment ZooKeeper is out of reach until they have been read again after it is back.
 */
class ControlsWatchTest {

    @TempDir
    Path dataDir;

    @Test
    void shouldFollowTheControlsAndKnowNothingWhileZooKeeperIsOutOfReach() throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().mode(LocalCluster.Mode.CHILD_PROCESSES).dataDir(dataDir)
                .emulator(false).externalKafka("unused:9092").start()) {
            TidemarkConfig config = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                    "zookeeper.chroot", "/tidemark-controls", "zookeeper.session.timeout.ms", "4000",
                    "zookeeper.connection.timeout.ms", "2000"));
            ControlFlag flag = new ControlFlag(Instant.parse("2026-11-26T12:00:00Z"), "ops@host", null);
            List<Boolean> knownAtChanges = new CopyOnWriteArrayList<>();
            try (ZooKeeperConnection processor = ZooKeeperConnection.start(config);
                 ControlsWatch watch = ControlsWatch.start(processor)) {
                watch.onChange(() -> knownAtChanges.add(watch.current().isPresent()));
                await().atMost(Duration.ofSeconds(20)).until(() -> watch.current().isPresent());
                assertThat(watch.current()).contains(Controls.NONE);
                try (ZooKeeperConnection operator = ZooKeeperConnection.start(config)) {
                    new LifecycleControls(operator.client()).pause(Optional.of("photos"), flag);
                }
                await().atMost(Duration.ofSeconds(5)).until(() -> watch.current()
                        .map(c -> c.paused().containsKey("photos")).orElse(false));

                // Out of reach: unknown at once (a pause set meanwhile could not be seen), not after the session.
                cluster.zookeeper().kill();
                await().atMost(Duration.ofSeconds(3)).until(() -> watch.current().isEmpty());
                long outageChanges = watch.changes();
                cluster.restartZooKeeper(false);
                // The count moves just after the view is published (so a waiter never misses it): wait for both.
                await().atMost(Duration.ofSeconds(30))
                        .until(() -> watch.current().isPresent() && watch.changes() > outageChanges);
                assertThat(watch.current().get().paused()).containsOnlyKeys("photos");

                // Past the session timeout: lost, then a new session reads them again, changes made meanwhile too.
                cluster.zookeeper().kill();
                await().atMost(Duration.ofSeconds(10)).until(() -> watch.current().isEmpty());
                Thread.sleep(6_000);
                cluster.restartZooKeeper(false);
                try (ZooKeeperConnection operator = ZooKeeperConnection.start(config)) {
                    assertThat(operator.awaitConnected(Duration.ofSeconds(20))).isTrue();
                    new LifecycleControls(operator.client()).resume(Optional.of("photos"));
                    new LifecycleControls(operator.client()).pause(Optional.empty(), flag);
                }
                await().atMost(Duration.ofSeconds(30)).until(() -> watch.current()
                        .map(c -> c.clusterPause().isPresent() && c.paused().isEmpty()).orElse(false));
            }
            assertThat(knownAtChanges).containsSubsequence(true, false, true, false, true);
        }
    }
}
