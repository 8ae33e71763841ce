package io.tidemark.populator;

import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.zookeeper.RegistryEntry;
import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.localcluster.EmbeddedZooKeeper;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.file.Path;
import java.time.Duration;
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
}
