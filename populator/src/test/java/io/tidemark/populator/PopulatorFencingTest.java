package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.LockInternals;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.junit.jupiter.api.Test;

/**
 * The guarantee behind leader election: even a populator that still believes it leads (a paused JVM, a partition
 * from ZooKeeper) cannot publish once a successor has started, because they share one transactional id; and once
 * its term fails, it stands down instead of fencing the successor in turn. What the zombie's failed commit is
 * called varies with the race (PRODUCER_FENCED, INVALID_TXN_STATE, or under load UNKNOWN_SERVER_ERROR from the
 * coordinator), so these tests hold the outcome, not the error class.
 */
@LocalClusterTest
class PopulatorFencingTest {

    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    @Test
    void shouldFenceAStaleLeaderSoTwoTailersNeverInterleave(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "fencing", Map.of());
             FilerClient filer = FilerClient.connect(f.emulator.filerAddress(), f.config.grpcTls(), Duration.ofSeconds(10));
             S3Workload workload = new S3Workload(f.emulator.s3(), 7, 4_000, 1_000).start()) {
            MetaLogTailer stale = PopulatorService.tailer(f.config, filer, null, f.zookeeper.client(), Clock.systemUTC(),
                    new PopulatorMetrics(new SimpleMeterRegistry(), Clock.systemUTC()), new SimpleMeterRegistry());
            Future<?> staleRun = pool.submit(() -> {
                stale.run(() -> true);
                return null;
            });
            await().atMost(CATCH_UP).until(() -> f.checkpoint().map(c -> c.published() > 0).orElse(false));

            AtomicBoolean successorLeads = new AtomicBoolean(true);
            MetaLogTailer successor = PopulatorService.tailer(f.config, filer, null, f.zookeeper.client(), Clock.systemUTC(),
                    new PopulatorMetrics(new SimpleMeterRegistry(), Clock.systemUTC()), new SimpleMeterRegistry());
            Future<?> successorRun = pool.submit(() -> {
                successor.run(successorLeads::get);
                return null;
            });

            // The stale tailer never learns from ZooKeeper that it lost; Kafka stops it at its next commit. Had it
            // committed anything after the successor's start, the successor (resuming from the checkpoint it read
            // then) would publish those events again, and the exactly-once check below would see them twice.
            // It needs events to commit: on a loaded machine the workload may be over before the successor starts.
            f.emulator.s3().createBucket("fencing-extra", false);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int i = 0; !staleRun.isDone() && System.nanoTime() < deadline; i++) {
                f.emulator.s3().putObject("fencing-extra", "o" + i, 1, Map.of(), Map.of());
                Thread.sleep(50);
            }
            assertThatThrownBy(() -> staleRun.get(1, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class);
            workload.awaitFinished();
            f.awaitCaughtUp(CATCH_UP);
            successorLeads.set(false);
            successorRun.get(30, TimeUnit.SECONDS);
            f.assertExactlyOnce();
            assertThat(f.checkpoint().orElseThrow().published()).isEqualTo(f.metaLog().size());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void shouldStandDownWithoutFencingItsSuccessorWhenItsTermFailsAfterLosingTheElection(LocalCluster cluster,
                                                                                         ClusterNamespace ns)
            throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "zombie", Map.of());
             S3Workload workload = new S3Workload(f.emulator.s3(), 11, 4_000, 1_000).start()) {
            PopulatorService zombie = f.startPopulator(Clock.systemUTC(), StaleLeadership::new);
            await().atMost(CATCH_UP).until(() -> zombie.metrics().leader()
                    && f.checkpoint().map(c -> c.published() > 0).orElse(false));
            PopulatorService successor = f.startPopulator();
            await().atMost(CATCH_UP).until(() -> successor.metrics().status() == PopulatorStatus.STANDBY);

            // The zombie's session "expires" behind its back: its election node goes, and it never hears of it.
            deleteFirstElectionNode(f.zookeeper.client());
            await().atMost(CATCH_UP).until(() -> successor.metrics().leader());

            await().atMost(CATCH_UP).until(() -> zombie.metrics().stoodDown() == 1
                    && zombie.metrics().status() == PopulatorStatus.STANDBY);
            workload.awaitFinished();
            f.awaitCaughtUp(CATCH_UP);
            assertThat(successor.metrics().termsStarted()).as("the successor's terms: it was never fenced back")
                    .isEqualTo(1);
            assertThat(successor.metrics().stoodDown()).isZero();
            assertThat(successor.metrics().leader()).isTrue();
            assertThat(zombie.metrics().termsStarted()).as("the zombie started no second term").isEqualTo(1);
            assertThat(zombie.metrics().leader()).isFalse();
            f.assertExactlyOnce();
        }
    }

    private static void deleteFirstElectionNode(CuratorFramework zookeeper) throws Exception {
        List<String> nodes = LockInternals.getSortedChildren(zookeeper, ZooKeeperPaths.POPULATOR_LEADER, "latch-",
                StandardLockInternalsDriver::standardFixForSorting);
        zookeeper.delete().forPath(ZooKeeperPaths.POPULATOR_LEADER + "/" + nodes.get(0));
    }

    /**
     * A real election place whose holder never hears that it lost (a paused JVM, a session that expired unnoticed):
     * until it rejoins, it believes it leads. What ZooKeeper says when asked stays the truth.
     */
    private static final class StaleLeadership implements Leadership {
        private final LatchLeadership real;
        private volatile boolean stale;

        StaleLeadership(CuratorFramework zookeeper) {
            this.real = new LatchLeadership(zookeeper, "zombie");
        }

        @Override
        public Optional<String> awaitLeading(Duration timeout) throws InterruptedException {
            Optional<String> node = real.awaitLeading(timeout);
            if (node.isPresent()) {
                stale = true;
            }
            return node;
        }

        @Override
        public boolean holds() {
            return stale || real.holds();
        }

        @Override
        public boolean confirmed() throws Exception {
            return real.confirmed();
        }

        @Override
        public void rejoin() {
            stale = false;
            real.rejoin();
        }

        @Override
        public void close() {
            real.close();
        }
    }
}
