package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.messages.ObjectTask;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;

/**
 * The operators' controls at the object processor: a bucket paused on its own has its tasks recorded as PAUSED and is
 * owed a walk, sent on its resume; a bucket in dry run has its actions recorded as DRY_RUN, nothing sent to the
 * gateway, and is owed a walk too; a paused cluster holds every task where it is (the cursor waits) until the resume.
 */
@LocalClusterTest
class ObjectProcessorControlsTest {

    private static final ControlFlag BY_TEST = new ControlFlag(Instant.now(), "test@host", "controls test");

    /** A deployment whose controls are its own: each test pauses and resumes under a ZooKeeper chroot of its own. */
    private static ProcessorFixture fixture(LocalCluster cluster, ClusterNamespace ns, String name) throws Exception {
        return ProcessorFixture.start(cluster, ns, name, Map.of("zookeeper.chroot", ns.zookeeperChroot() + "-" + name));
    }

    @Test
    void shouldDeferAPausedBucketsTasksToTheWalkItsResumeSends(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = fixture(cluster, ns, "pause");
             ZooKeeperConnection zk = ZooKeeperConnection.start(f.config)) {
            LifecycleControls controls = new LifecycleControls(zk.client());
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("paused", false);
            s3.createBucket("running", false);
            s3.putObject("paused", "a", 10, Map.of(), Map.of());
            s3.putObject("paused", "b", 10, Map.of(), Map.of());
            s3.putObject("running", "c", 10, Map.of(), Map.of());
            assertThat(controls.pause(Optional.of("paused"), BY_TEST)).isTrue();
            assertThat(controls.pause(Optional.of("paused"), BY_TEST)).as("already paused").isFalse();
            f.startProcessor();

            ObjectTask a = f.expiration("paused", "a");
            ObjectTask b = f.expiration("paused", "b");
            ObjectTask c = f.expiration("running", "c");
            f.publish(List.of(a, b, c));

            // Every task finished (no cursor held for one bucket), the paused ones only recorded.
            f.awaitAllCommitted(Duration.ofSeconds(30));
            assertThat(s3.latest("running", "c")).isEmpty();
            assertThat(s3.latest("paused", "a")).as("paused: kept").isPresent();
            assertThat(s3.latest("paused", "b")).as("paused: kept").isPresent();
            assertThat(f.outcomesByAction()).containsEntry(a.actionId(), List.of("PAUSED"))
                    .containsEntry(b.actionId(), List.of("PAUSED")).containsEntry(c.actionId(), List.of("DONE"));
            assertThat(controls.read().owedWalks()).containsOnlyKeys("paused");
            assertThat(f.walks()).as("no walk while it is paused").isEmpty();

            assertThat(controls.resume(Optional.of("paused"))).isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> controls.read().owedWalks().isEmpty());
            assertThat(f.walks()).singleElement().satisfies(walk -> {
                assertThat(walk.target().bucket()).isEqualTo("paused");
                assertThat(walk.details().mode()).isEqualTo(BucketTask.Mode.recovery);
                assertThat(walk.details().prefix()).isEmpty();
                assertThat(walk.details().scanId()).startsWith("owed-paused-");
            });
        }
    }

    /** The note of an owed walk is what keeps a deferred task's expiration: without it the task must not finish. */
    @Test
    void shouldKeepADeferredTaskUnfinishedWhileItsOwedWalkCannotBeNotedAndGoOnWithTheRest(LocalCluster cluster,
                                                                                          ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = fixture(cluster, ns, "unnoted");
             ZooKeeperConnection zk = ZooKeeperConnection.start(f.config)) {
            LifecycleControls controls = new LifecycleControls(zk.client());
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("paused", false);
            s3.createBucket("running", false);
            s3.putObject("paused", "a", 10, Map.of(), Map.of());
            s3.putObject("running", "c", 10, Map.of(), Map.of());
            controls.pause(Optional.of("paused"), BY_TEST);
            // ZooKeeper refuses the note: its parent may be read (and its permissions changed), not written.
            zk.client().create().creatingParentsIfNeeded().withACL(List.of(new ACL(ZooDefs.Perms.READ | ZooDefs.Perms.ADMIN,
                    ZooDefs.Ids.ANYONE_ID_UNSAFE))).forPath(ZooKeeperPaths.OWED_WALKS);
            ObjectProcessorService processor = f.startProcessor();

            ObjectTask a = f.expiration("paused", "a");
            ObjectTask c = f.expiration("running", "c");
            f.publish(List.of(a, c));
            await().atMost(Duration.ofSeconds(30)).until(() -> s3.latest("running", "c").isEmpty());
            Thread.sleep(2_000);
            int partition = f.shard(ProcessorFixture.key(a));
            assertThat(f.committedOffsets().getOrDefault(partition, 0L)).as("not finished without its note")
                    .isLessThan(f.endOffsets().get(partition));
            assertThat(processor.live()).as("the service goes on").isTrue();
            assertThat(s3.latest("paused", "a")).isPresent();

            zk.client().setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(ZooKeeperPaths.OWED_WALKS);
            f.awaitAllCommitted(Duration.ofSeconds(30));
            assertThat(controls.read().owedWalks()).containsOnlyKeys("paused");
            assertThat(s3.latest("paused", "a")).as("still paused: kept").isPresent();
        }
    }

    @Test
    void shouldRecordADryRunBucketsActionsWithoutCallingTheGatewayAndHoldEverythingWhileTheClusterIsPaused(
            LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = fixture(cluster, ns, "dry-run");
             ZooKeeperConnection zk = ZooKeeperConnection.start(f.config)) {
            LifecycleControls controls = new LifecycleControls(zk.client());
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("trial", false);
            s3.createBucket("other", false);
            s3.putObject("trial", "x", 10, Map.of(), Map.of());
            s3.putObject("other", "y", 10, Map.of(), Map.of());
            controls.dryRun("trial", true, BY_TEST);
            f.startProcessor();

            ObjectTask x = f.expiration("trial", "x");
            f.publish(List.of(x));
            f.awaitAllCommitted(Duration.ofSeconds(30));
            assertThat(s3.latest("trial", "x")).as("dry run: kept").isPresent();
            assertThat(f.events()).singleElement().satisfies(e -> {
                assertThat(e.outcome()).isEqualTo("DRY_RUN");
                assertThat(e.actionId()).isEqualTo(x.actionId());
                assertThat(e.ruleId()).isEqualTo(ProcessorFixture.RULE_ID);
                assertThat(e.reason()).contains("not sent to the gateway");
            });
            assertThat(controls.read().owedWalks()).containsOnlyKeys("trial");

            // The whole cluster paused: every task held where it is, nothing recorded, the cursor waits.
            controls.pause(Optional.empty(), BY_TEST);
            // A pause reaches a processor within its watch's delay: the tasks go out once this one shows it has.
            await().atMost(Duration.ofSeconds(10)).until(() -> f.meter("tidemark.object.processor.cluster.paused") == 1);
            ObjectTask again = f.expiration("trial", "x");
            ObjectTask y = f.expiration("other", "y");
            f.publish(List.of(again, y));
            await().atMost(Duration.ofSeconds(10)).until(() -> f.meter("tidemark.object.processor.paused.tasks") == 2);
            Thread.sleep(1_000);
            assertThat(s3.latest("other", "y")).isPresent();
            assertThat(f.events()).extracting(LifecycleEvent::actionId).containsExactly(x.actionId());
            int partition = f.shard(ProcessorFixture.key(y));
            assertThat(f.committedOffsets().getOrDefault(partition, 0L)).as("the cursor waits for the held task")
                    .isLessThan(f.endOffsets().get(partition));

            // Out of dry run, and resumed: both carried out, and the walk the dry run is owed sent.
            controls.dryRun("trial", false, BY_TEST);
            controls.resume(Optional.empty());
            f.awaitAllCommitted(Duration.ofSeconds(30));
            assertThat(s3.latest("trial", "x")).isEmpty();
            assertThat(s3.latest("other", "y")).isEmpty();
            assertThat(f.outcomesByAction()).containsEntry(again.actionId(), List.of("DONE"))
                    .containsEntry(y.actionId(), List.of("DONE"));
            assertThat(f.meter("tidemark.object.processor.paused.tasks")).isZero();
            await().atMost(Duration.ofSeconds(30)).until(() -> controls.read().owedWalks().isEmpty());
            assertThat(f.walks()).extracting(w -> w.details().scanId()).singleElement().asString()
                    .startsWith("owed-trial-");
        }
    }
}
