package io.tidemark.populator;

import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.zookeeper.RegistryEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.localcluster.EmbeddedZooKeeper;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BucketRegistryTest {

    @TempDir
    static Path dir;

    static EmbeddedZooKeeper zookeeper;
    static ZooKeeperConnection zk;

    @BeforeAll
    static void start() throws Exception {
        zookeeper = EmbeddedZooKeeper.start(dir, 0);
        zk = ZooKeeperConnection.start(zookeeper.address(), "tidemark-registry-test", Duration.ofSeconds(10),
                Duration.ofSeconds(5), null);
        assertThat(zk.awaitConnected(Duration.ofSeconds(10))).isTrue();
    }

    @AfterAll
    static void stop() {
        zk.close();
        zookeeper.close();
    }

    private static BucketConfigChange change(String bucket, String hash, String invalid) {
        return new BucketConfigChange(bucket, new BucketConfig(bucket, "Enabled", false, "<xml/>", hash, invalid,
                invalid == null ? null : "rule 1: broken"), invalid == null);
    }

    @Test
    void shouldRegisterUpdateAndRemoveABucketIdempotently() throws Exception {
        BucketRegistry registry = new BucketRegistry(zk.client(), RuleReader.aws());
        registry.apply(change("photos", "aa", null));
        registry.apply(change("photos", "aa", null));
        assertThat(registry.read("photos")).contains(new RegistryEntry("aa", "Enabled", false, null, false));
        registry.apply(change("photos", "bb", null));
        assertThat(registry.read("photos").orElseThrow().ruleSetHash()).isEqualTo("bb");
        assertThat(registry.buckets()).contains("photos");

        BucketConfigChange removal = new BucketConfigChange("photos", null, false);
        registry.apply(removal);
        registry.apply(removal);
        assertThat(registry.read("photos")).isEmpty();
    }

    @Test
    void shouldRecordAnInvalidConfigurationWithItsErrorCode() throws Exception {
        BucketRegistry registry = new BucketRegistry(zk.client(), RuleReader.aws());
        registry.apply(change("broken", "", "MalformedXML"));
        assertThat(registry.read("broken").orElseThrow().invalidCode()).isEqualTo("MalformedXML");
    }

    @Test
    void shouldNameARecoveryWalkAfterItsBucketRulesAndTheEventThatChangedThem() {
        BucketTask task = BucketRegistry.recoveryTask(change("photos", "0123456789abcdef0123", null), 1_700_000_000_5L);
        assertThat(task.target().bucket()).isEqualTo("photos");
        assertThat(task.details().mode()).isEqualTo(BucketTask.Mode.recovery);
        assertThat(task.details().scanId()).isEqualTo("recovery-photos-0123456789abcdef-17000000005");
        assertThat(task.details().marker()).isNull();
    }

    /** Rules A, then B, then A again: the third walk is a new walk, not a repeat of the first. */
    @Test
    void shouldGiveARecoveryWalkANewIdWhenRulesReturnToAnEarlierSet() {
        BucketConfigChange a = change("photos", "aaaaaaaaaaaaaaaaaaaa", null);
        String first = BucketRegistry.recoveryTask(a, 100).details().scanId();
        String again = BucketRegistry.recoveryTask(a, 300).details().scanId();
        assertThat(again).isNotEqualTo(first);
        assertThat(BucketRegistry.recoveryTask(a, 100).details().scanId()).as("a retried transaction").isEqualTo(first);
    }

    /**
     * Issue 15 item 2: a deposed leader's registry writes must not land. Once the latch node the registry is fenced by
     * is gone (its session expired, a successor leads), a create, an update and a delete are all refused, whole.
     */
    @Test
    void shouldWriteNothingOnceTheLeaderNodeItIsFencedByIsGone() throws Exception {
        String leaderNode = zk.client().create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                .forPath("/fencing-test/latch-");
        BucketRegistry registry = new BucketRegistry(zk.client(), RuleReader.aws()).fencedBy(leaderNode);
        registry.apply(change("kept", "aa", null));
        registry.apply(change("changed", "aa", null));
        assertThat(registry.read("kept")).isPresent();

        zk.client().delete().forPath(leaderNode);

        assertThatThrownBy(() -> registry.apply(new BucketConfigChange("kept", null, false)))
                .isInstanceOf(LeadershipLostException.class);
        assertThatThrownBy(() -> registry.apply(change("late", "bb", null))).isInstanceOf(LeadershipLostException.class);
        assertThatThrownBy(() -> registry.applyAll(List.of(change("changed", "cc", null), change("late-2", "cc", null))))
                .isInstanceOf(LeadershipLostException.class);
        assertThat(registry.read("kept")).as("a late delete did not land").isPresent();
        assertThat(registry.read("late")).as("a late create did not land").isEmpty();
        assertThat(registry.read("late-2")).isEmpty();
        assertThat(registry.read("changed").orElseThrow().ruleSetHash()).as("a late update did not land").isEqualTo("aa");
    }

    /**
     * Changes go to ZooKeeper in groups, one multi-op each; a group fails whole when one of its nodes exists or one
     * delete finds nothing, and is then written a change at a time.
     */
    @Test
    void shouldWriteAGroupHoldingAnExistingNodeAndAnAbsentOneChangeByChange() throws Exception {
        BucketRegistry registry = new BucketRegistry(zk.client(), RuleReader.aws());
        registry.apply(change("group-05", "old", null));
        List<BucketConfigChange> group = new ArrayList<>(IntStream.range(0, 10)
                .mapToObj(i -> change("group-0" + i, "new", null)).toList());
        group.add(new BucketConfigChange("group-never", null, false));

        assertThat(registry.applyAll(group)).isEmpty();

        Map<String, Optional<RegistryEntry>> all = registry.readAll();
        assertThat(all.keySet()).filteredOn(n -> n.startsWith("group-")).hasSize(10);
        assertThat(all.get("group-05")).map(RegistryEntry::ruleSetHash).contains("new");
    }

    @Test
    void shouldApplyThousandsOfChangesInOneCallAndReadThemBackInOne() throws Exception {
        BucketRegistry registry = new BucketRegistry(zk.client(), RuleReader.aws());
        List<BucketConfigChange> creates = IntStream.range(0, 3_000)
                .mapToObj(i -> change(String.format("many-%04d", i), "aa", null)).toList();
        assertThat(registry.applyAll(creates)).isEmpty();
        // Overwrite a third, remove a third (one of them twice, one never registered), leave a third.
        List<BucketConfigChange> next = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            String name = String.format("many-%04d", i);
            if (i % 3 == 0) {
                next.add(change(name, "bb", null));
            } else if (i % 3 == 1) {
                next.add(new BucketConfigChange(name, null, false));
            }
        }
        next.add(new BucketConfigChange("many-0001", null, false));
        next.add(new BucketConfigChange("never-registered", null, false));
        next.add(new BucketConfigChange("bad\u0001name", null, false));
        assertThat(registry.applyAll(next)).containsExactly("bad\u0001name");

        Map<String, Optional<RegistryEntry>> all = registry.readAll();
        assertThat(all.keySet()).filteredOn(n -> n.startsWith("many-")).hasSize(2_000);
        assertThat(all.get("many-0000")).map(RegistryEntry::ruleSetHash).contains("bb");
        assertThat(all.get("many-0002")).map(RegistryEntry::ruleSetHash).contains("aa");
        assertThat(all).doesNotContainKey("many-0001");
    }
}
