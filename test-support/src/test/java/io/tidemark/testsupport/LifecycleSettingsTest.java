package io.tidemark.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle settings every service shares, on a real ZooKeeper: recorded by the first, compared by the others,
 * a difference refused in one line with both values, and changed on purpose only through a reset.
 */
@LocalClusterTest
class LifecycleSettingsTest {

    private static final Instant T0 = Instant.parse("2026-05-02T10:00:00Z");

    private static TidemarkConfig config(LocalCluster cluster, String chroot, String... pairs) {
        Map<String, String> settings = new LinkedHashMap<>(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", chroot));
        for (int i = 0; i < pairs.length; i += 2) {
            settings.put(pairs[i], pairs[i + 1]);
        }
        return new TidemarkConfig(settings);
    }

    @Test
    void shouldRecordTheFirstServicesSettingsAndRefuseAServiceWhoseSettingsDiffer(LocalCluster cluster,
                                                                                 ClusterNamespace ns) throws Exception {
        String chroot = ns.zookeeperChroot() + "-lifecycle";
        TidemarkConfig real = config(cluster, chroot);
        assertThat(real.sharedLifecycleSettings()).containsExactly(Map.entry("lifecycle.day.seconds", "86400"),
                Map.entry("lifecycle.due.policy", "aws"), Map.entry("lifecycle.test.mode", "false"),
                Map.entry("lifecycle.validation.mode", "aws"));
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(real)) {
            LifecycleSettings settings = new LifecycleSettings(zk.client());
            assertThat(settings.read()).isEmpty();

            LifecycleSettings.Recorded first = settings.verify(real, "populator 1@host-a", T0);
            assertThat(first.recordedBy()).isEqualTo("populator 1@host-a");
            assertThat(settings.read()).contains(first);
            assertThat(new String(zk.client().getData().forPath(ZooKeeperPaths.LIFECYCLE_SETTINGS),
                    StandardCharsets.UTF_8)).contains("\"recordedAt\":\"2026-05-02T10:00:00Z\"");

            // The same values agree, whoever and whenever: the record stays the first one's.
            assertThat(settings.verify(config(cluster, chroot, "shard.bits", "6"), "object-processor 2@host-b",
                    T0.plusSeconds(60))).isEqualTo(first);

            TidemarkConfig demo = config(cluster, chroot, "lifecycle.day.seconds", "60", "lifecycle.test.mode",
                    "true");
            assertThatThrownBy(() -> settings.verify(demo, "replay-streams 3@host-c", T0.plusSeconds(120)))
                    .isInstanceOf(ConfigException.class)
                    .hasMessage("lifecycle settings differ from the cluster's (recorded by populator 1@host-a at "
                            + "2026-05-02T10:00:00Z): lifecycle.day.seconds is 60 here, 86400 in the cluster; "
                            + "lifecycle.test.mode is true here, false in the cluster. Every service must decide "
                            + "alike: start this one with the cluster's values, or, "
                            + LifecycleSettings.HOW_TO_CHANGE);
            assertThatThrownBy(() -> settings.verify(config(cluster, chroot, "lifecycle.validation.mode",
                    "seaweedfs"), "bucket-processor 4@host-d", T0)).hasMessageContaining(
                    "lifecycle.validation.mode is seaweedfs here, aws in the cluster");
            assertThat(settings.read()).as("a refusal changes nothing").contains(first);

            // Changed on purpose: the record removed, the next service to start records its own.
            assertThat(settings.reset()).contains(first);
            assertThat(settings.reset()).isEmpty();
            LifecycleSettings.Recorded second = settings.verify(demo, "replay-streams 3@host-c", T0.plusSeconds(180));
            assertThat(second.testMode()).isTrue();
            assertThat(second.settings()).containsEntry("lifecycle.day.seconds", "60");
            assertThatThrownBy(() -> settings.verify(real, "populator 1@host-a", T0.plusSeconds(240)))
                    .hasMessageContaining("lifecycle.day.seconds is 86400 here, 60 in the cluster");
        }
    }

    @Test
    void shouldTakeASettingTheRecordLacksAtItsDefault(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        String chroot = ns.zookeeperChroot() + "-older";
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config(cluster, chroot))) {
            // Recorded by a version that knew no test mode.
            zk.client().create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.LIFECYCLE_SETTINGS, ("{\"settings\":"
                    + "{\"lifecycle.day.seconds\":\"86400\",\"lifecycle.due.policy\":\"aws\","
                    + "\"lifecycle.validation.mode\":\"aws\"},\"recordedBy\":\"old\",\"recordedAt\":"
                    + "\"2026-01-01T00:00:00Z\"}").getBytes(StandardCharsets.UTF_8));
            LifecycleSettings settings = new LifecycleSettings(zk.client());
            assertThat(settings.verify(config(cluster, chroot), "new", T0).recordedBy()).isEqualTo("old");
            assertThatThrownBy(() -> settings.verify(config(cluster, chroot, "lifecycle.day.seconds", "1",
                    "lifecycle.test.mode", "true"), "new", T0)).hasMessageContaining(
                    "lifecycle.test.mode is true here, false in the cluster");
        }
    }
}
