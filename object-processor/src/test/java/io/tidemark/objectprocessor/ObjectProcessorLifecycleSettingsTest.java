package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.service.ServiceState;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The lifecycle settings a service decides with are the cluster's: the first object processor records them in
 * ZooKeeper, and one started with a day of other length refuses to start, naming both values in one line.
 */
@LocalClusterTest
class ObjectProcessorLifecycleSettingsTest {

    private static TidemarkConfig with(ProcessorFixture f, Map<String, String> changes) {
        Map<String, String> settings = new LinkedHashMap<>(f.settings);
        settings.putAll(changes);
        return new TidemarkConfig(settings);
    }

    @Test
    void shouldRefuseToStartWithLifecycleSettingsOtherThanTheOnesTheClusterRecorded(LocalCluster cluster,
                                                                                   ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "settings", Map.of());
             ZooKeeperConnection zk = ZooKeeperConnection.start(f.config)) {
            f.startProcessor();
            String recorded = new String(zk.client().getData().forPath("/lifecycle/settings"), StandardCharsets.UTF_8);
            assertThat(recorded).contains("\"lifecycle.day.seconds\":\"86400\"", "\"lifecycle.test.mode\":\"false\"",
                    "object-processor");

            ObjectProcessorService demo = new ObjectProcessorService(with(f, Map.of("lifecycle.day.seconds", "60",
                    "lifecycle.test.mode", "true")), Clock.systemUTC(), new SimpleMeterRegistry());
            assertThatThrownBy(demo::start).hasMessageContaining("lifecycle settings differ from the cluster's "
                            + "(recorded by object-processor ")
                    .hasMessageContaining("lifecycle.day.seconds is 60 here, 86400 in the cluster; "
                            + "lifecycle.test.mode is true here, false in the cluster")
                    .hasMessageContaining("tidemark lifecycle settings --reset")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThat(demo.state()).isEqualTo(ServiceState.FAILED);
            demo.close();

            ObjectProcessorService exact = new ObjectProcessorService(with(f, Map.of("lifecycle.due.policy",
                    "exact")), Clock.systemUTC(), new SimpleMeterRegistry());
            assertThatThrownBy(exact::start).hasMessageContaining("lifecycle.due.policy is exact here, aws in the "
                    + "cluster");
            exact.close();

            ObjectProcessorService same = new ObjectProcessorService(with(f, Map.of("object-processor.max.in.flight",
                    "8")), Clock.systemUTC(), new SimpleMeterRegistry());
            try {
                same.start();
                assertThat(same.state()).as("other settings may differ").isEqualTo(ServiceState.RUNNING);
            } finally {
                same.close();
            }
        }
    }

    @Test
    void shouldStartInTestModeOnAClusterThatRecordedTestMode(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "test-mode", Map.of("lifecycle.day.seconds",
                "5", "lifecycle.test.mode", "true"));
             ZooKeeperConnection zk = ZooKeeperConnection.start(f.config)) {
            f.startProcessor();
            assertThat(new String(zk.client().getData().forPath("/lifecycle/settings"), StandardCharsets.UTF_8))
                    .contains("\"lifecycle.day.seconds\":\"5\"", "\"lifecycle.test.mode\":\"true\"");
            ObjectProcessorService second = new ObjectProcessorService(f.config, Clock.systemUTC(),
                    new SimpleMeterRegistry());
            try {
                second.start();
                assertThat(second.state()).isEqualTo(ServiceState.RUNNING);
            } finally {
                second.close();
            }
        }
    }
}
