package io.tidemark.cli.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.cli.ServicesMain;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.localcluster.ServiceProcess;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Runs {@code tidemark populator} as its own process, as an operator would, and stops it with SIGTERM. */
@LocalClusterTest
class PopulatorCommandTest {

    @Test
    void shouldTailTheFilerServeHealthAndMetricsAndStopOnSigterm(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ServiceProcess populator = ServiceProcess.start(ServicesMain.class, "384m", cluster.environment(),
                "populator",
                "--set", "topic.prefix=" + ns.topicPrefix(), "--set", "zookeeper.chroot=" + ns.zookeeperChroot(),
                "--set", "management.port=0", "--set", "management.host=127.0.0.1",
                "--set", "kafka.producer.linger.ms=1")) {
            assertThat(populator.log()).anyMatch(l -> l.contains("kafka.bootstrap.servers = "
                    + cluster.kafkaBootstrapServers()));
            await().atMost(Duration.ofSeconds(120)).until(() -> populator.metric("tidemark_populator_leader{", " 1.0"));
            assertThat(populator.get("/healthz").statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> populator.get("/readyz").statusCode() == 200);
            // Leading is not tailing yet: the term fences and reads its state first (seconds on a loaded machine).
            // What changes before the cold start's overlap is found by its bucket listing, not published as events:
            // wait for the cold start to begin.
            await().atMost(Duration.ofSeconds(120)).until(() -> populator.get("/metrics").body().lines()
                    .anyMatch(l -> l.startsWith("tidemark_populator_cold_starts_total") && !l.endsWith(" 0.0")));

            String bucket = "cli-" + Long.toHexString(System.nanoTime());
            cluster.emulator().s3().createBucket(bucket, false);
            cluster.emulator().s3().putObject(bucket, "k", 1, Map.of(), Map.of());
            try {
                await().atMost(Duration.ofSeconds(120)).until(() -> populator.get("/metrics").body().lines()
                        .anyMatch(l -> l.startsWith("tidemark_populator_events_published_total{kind=\"object_written\"")
                                && !l.endsWith(" 0.0")));
            } catch (org.awaitility.core.ConditionTimeoutException e) {
                // The child's log, for a failure on a machine nobody can look at.
                List.copyOf(populator.log()).forEach(System.out::println);
                throw e;
            }

            // 143 is 128 + SIGTERM: the JVM's own exit status after the shutdown hook has stopped the service.
            assertThat(populator.terminate()).isIn(0, 143);
            assertThat(populator.log()).anyMatch(l -> l.contains("populator: status=stopped"));
        }
    }
}
