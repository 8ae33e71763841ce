package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

@LocalClusterTest
class WalkProgressTest {

    private static final Instant NOW = Instant.parse("2026-11-24T03:00:00Z");

    private static BucketTask task(String scanId, BucketTask.Mode mode, String prefix, String marker) {
        return new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target("photos"),
                new BucketTask.Details(scanId, mode, prefix, marker));
    }

    /** The task a page goes on with: the same walk, further on. */
    private static Optional<BucketTask> goesOn(String scanId, BucketTask.Mode mode) {
        return Optional.of(task(scanId, mode, "", "further"));
    }

    /** A one-key walk must neither finish nor take over the walk of the whole bucket that is under way. */
    @Test
    void shouldLeaveTheBucketsWalkStateAloneForAWalkOfOnePrefix(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        TidemarkConfig config = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", ns.zookeeperChroot()));
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            WalkStates states = new WalkStates(zk.client());
            WalkProgress progress = new WalkProgress(states, Clock.fixed(NOW, ZoneOffset.UTC));
            progress.paged(task("steady-1", BucketTask.Mode.steady, "", null), 1000, 2,
                    goesOn("steady-1", BucketTask.Mode.steady));

            assertThat(progress.paged(task("promoted-photos-1", BucketTask.Mode.recovery, "2026/a.jpg", null), 3, 0,
                    Optional.empty())).isEmpty();

            WalkState state = states.read("photos").orElseThrow();
            assertThat(state.scanId()).isEqualTo("steady-1");
            assertThat(state.finishedAt()).as("the bucket's walk is still under way").isNull();
            progress.paged(task("steady-1", BucketTask.Mode.steady, "", "m"), 500, 1, Optional.empty());
            assertThat(states.read("photos").orElseThrow().finishedAt()).isEqualTo(NOW);
            // Null delete markers met by the walk, kept for status until the next walk finishes.
            assertThat(states.read("photos").orElseThrow().lastNullMarkers()).isEqualTo(3);
            progress.paged(task("steady-2", BucketTask.Mode.steady, "", null), 10, 0,
                    goesOn("steady-2", BucketTask.Mode.steady));
            assertThat(states.read("photos").orElseThrow().lastNullMarkers()).isEqualTo(3);
        }
    }

    /**
     * Issue 27 item 9: a recovery walk that begins while a steady walk runs takes the state over; the steady walk must
     * then stop, or once the recovery walk finished the conductor would seed a second steady walk beside it.
     */
    @Test
    void shouldStopAWalkThatANewerWalkOfTheBucketTookOverFrom(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        TidemarkConfig config = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", ns.zookeeperChroot() + "-taken"));
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            WalkStates states = new WalkStates(zk.client());
            WalkProgress progress = new WalkProgress(states, Clock.fixed(NOW, ZoneOffset.UTC));
            progress.paged(task("steady-1", BucketTask.Mode.steady, "", null), 1000, 0,
                    goesOn("steady-1", BucketTask.Mode.steady));
            assertThat(progress.superseded(task("steady-1", BucketTask.Mode.steady, "", "m1"))).isFalse();

            progress.paged(task("recovery-1", BucketTask.Mode.recovery, "", null), 1000, 0,
                    goesOn("recovery-1", BucketTask.Mode.recovery));

            assertThat(progress.superseded(task("steady-1", BucketTask.Mode.steady, "", "m2"))).as("steady gives way")
                    .isTrue();
            assertThat(progress.superseded(task("recovery-1", BucketTask.Mode.recovery, "", "r1"))).isFalse();
            progress.paged(task("steady-2", BucketTask.Mode.steady, "", null), 10, 0,
                    goesOn("steady-2", BucketTask.Mode.steady));
            assertThat(progress.superseded(task("recovery-1", BucketTask.Mode.recovery, "", "r2")))
                    .as("a recovery walk is owed to its end; a steady one does not stop it").isFalse();
            assertThat(progress.superseded(task("promoted-1", BucketTask.Mode.recovery, "k", "x")))
                    .as("walks of one key are not tracked").isFalse();
        }
    }

    /** A failed walk is recorded as such, with its page, and is not finished. */
    @Test
    void shouldRecordAFailedWalkWithItsPageAndNotAsFinished(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        TidemarkConfig config = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", ns.zookeeperChroot() + "-failed"));
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            WalkStates states = new WalkStates(zk.client());
            WalkProgress progress = new WalkProgress(states, Clock.fixed(NOW, ZoneOffset.UTC));
            progress.paged(task("steady-1", BucketTask.Mode.steady, "", null), 1000, 0,
                    goesOn("steady-1", BucketTask.Mode.steady));
            BucketTask stuck = task("steady-1", BucketTask.Mode.steady, "", "logs/k0042");

            progress.failed(stuck, "the filer failed 5 times: UNKNOWN");

            WalkState state = states.read("photos").orElseThrow();
            assertThat(state.failed()).isTrue();
            assertThat(state.finishedAt()).isNull();
            assertThat(state.resume()).isEqualTo(stuck.details());
            assertThat(state.failure()).contains("UNKNOWN");
            assertThat(state.inProgress(NOW, java.time.Duration.ofHours(6))).isFalse();
        }
    }
}
