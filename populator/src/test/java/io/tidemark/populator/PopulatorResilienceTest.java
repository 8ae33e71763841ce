package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The populator through outages of its own dependencies. These restart the brokers, so they run on a cluster of
 * their own rather than the one other test classes share, with Kafka and ZooKeeper as child processes so an outage
 * is a real SIGKILL.
 */
class PopulatorResilienceTest {

    static LocalCluster cluster;

    @BeforeAll
    static void startCluster() {
        cluster = LocalCluster.builder().mode(LocalCluster.Mode.CHILD_PROCESSES).emulator(false).start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    /** Records whether the populator ever stopped leading while it is watched. */
    private static Thread watchLeadership(PopulatorService populator, AtomicBoolean steppedDown) {
        Thread watcher = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                if (!populator.metrics().leader()) {
                    steppedDown.set(true);
                }
                try {
                    Thread.sleep(5);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        watcher.setDaemon(true);
        watcher.start();
        return watcher;
    }

    @Test
    void shouldStepDownWhileZooKeeperIsAwayAndResumeWithoutLossOrDuplicate() throws Exception {
        ClusterNamespace ns = new ClusterNamespace("resilience-zk.", "/tidemark-resilience");
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "zk", Map.of());
             S3Workload workload = new S3Workload(f.emulator.s3(), 11, Integer.MAX_VALUE, 1_000).start()) {
            PopulatorService populator = f.startPopulator();
            await().atMost(Duration.ofSeconds(60)).until(() -> f.checkpoint().map(c -> c.published() > 0).orElse(false));
            AtomicBoolean steppedDown = new AtomicBoolean();
            Thread watcher = watchLeadership(populator, steppedDown);
            cluster.restartZooKeeper(true);
            await().atMost(Duration.ofSeconds(30)).until(steppedDown::get);
            await().atMost(Duration.ofSeconds(60)).until(() -> populator.metrics().leader());
            watcher.interrupt();
            Thread.sleep(1_000);
            workload.finish();
            f.awaitCaughtUp(Duration.ofSeconds(60));
            f.assertExactlyOnce();
            assertThat(f.checkpoint().orElseThrow().published()).isEqualTo(f.metaLog().size());
        }
    }

    @Test
    void shouldAbortAndRetryThroughAKafkaOutageWithoutLossOrDuplicate() throws Exception {
        ClusterNamespace ns = new ClusterNamespace("resilience-kafka.", "/tidemark-resilience");
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "kafka",
                Map.of("kafka.producer.max.block.ms", "5000", "kafka.producer.delivery.timeout.ms", "8000",
                        "kafka.producer.request.timeout.ms", "3000"));
             S3Workload workload = new S3Workload(f.emulator.s3(), 12, Integer.MAX_VALUE, 1_000).start()) {
            PopulatorService populator = f.startPopulator();
            await().atMost(Duration.ofSeconds(60)).until(() -> f.checkpoint().map(c -> c.published() > 0).orElse(false));
            // Down for longer than the producer's timeouts: the open transaction cannot commit, the term fails,
            // and the populator retries from its checkpoint until the broker is back.
            cluster.restartKafka(true, Duration.ofSeconds(10));
            await().atMost(Duration.ofSeconds(60)).until(() -> populator.metrics().statusLine().contains("status=leading"));
            workload.finish();
            f.awaitCaughtUp(Duration.ofSeconds(120));
            f.assertExactlyOnce();
            assertThat(f.checkpoint().orElseThrow().published()).isEqualTo(f.metaLog().size());
            assertThat(populator.metrics().statusLine()).doesNotContain("aborted=0");
        }
    }
}
