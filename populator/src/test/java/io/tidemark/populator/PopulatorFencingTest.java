package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.localcluster.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.localcluster.LocalClusterTest;
import io.tidemark.seaweed.client.FilerClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The guarantee behind leader election: even a populator that still believes it leads (a paused JVM, a partition
 * from ZooKeeper) cannot publish once a successor has started, because they share one transactional id.
 */
@LocalClusterTest
class PopulatorFencingTest {

    @Test
    void shouldFenceAStaleLeaderSoTwoTailersNeverInterleave(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "fencing", Map.of());
             FilerClient filer = FilerClient.connect(f.emulator.filerAddress(), f.config.grpcTls(), Duration.ofSeconds(10));
             S3Workload workload = new S3Workload(f.emulator.s3(), 7, 4_000, 1_000).start()) {
            MetaLogTailer stale = PopulatorService.tailer(f.config, filer, f.zookeeper.client(), Clock.systemUTC(),
                    new PopulatorMetrics(new SimpleMeterRegistry(), Clock.systemUTC()), new SimpleMeterRegistry());
            Future<?> staleRun = pool.submit(() -> {
                stale.run(() -> true);
                return null;
            });
            await().atMost(Duration.ofSeconds(60)).until(() -> f.checkpoint().map(c -> c.published() > 0).orElse(false));

            AtomicBoolean successorLeads = new AtomicBoolean(true);
            MetaLogTailer successor = PopulatorService.tailer(f.config, filer, f.zookeeper.client(), Clock.systemUTC(),
                    new PopulatorMetrics(new SimpleMeterRegistry(), Clock.systemUTC()), new SimpleMeterRegistry());
            Future<?> successorRun = pool.submit(() -> {
                successor.run(successorLeads::get);
                return null;
            });

            // The stale tailer never learns from ZooKeeper that it lost; Kafka stops it at its next commit.
            assertThatThrownBy(() -> staleRun.get(60, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                    .cause().satisfies(e -> assertThat(PopulatorService.fenced(e)).as(e.toString()).isTrue());
            workload.awaitFinished();
            f.awaitCaughtUp(Duration.ofSeconds(60));
            successorLeads.set(false);
            successorRun.get(30, TimeUnit.SECONDS);
            f.assertExactlyOnce();
            assertThat(f.checkpoint().orElseThrow().published()).isEqualTo(f.metaLog().size());
        } finally {
            pool.shutdownNow();
        }
    }
}
