package io.tidemark.cli.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.cli.ServicesMain;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.localcluster.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs {@code tidemark replay-streams} as its own process: it logs its settings, gets ready, serves metrics, stops. */
@LocalClusterTest
class ReplayStreamsCommandTest {

    @Test
    void shouldRunServeProbesAndMetricsAndStopOnSigterm(LocalCluster cluster, ClusterNamespace ns, @TempDir Path state)
            throws Exception {
        try (ServiceProcess replay = ServiceProcess.start(ServicesMain.class, "384m", cluster.environment(),
                "replay-streams",
                "--set", "topic.prefix=" + ns.topicPrefix(), "--set", "management.port=0",
                "--set", "management.host=127.0.0.1", "--set", "replay-streams.state.dir=" + state)) {
            assertThat(replay.log()).anyMatch(l -> l.contains("replay-streams.punctuate.interval.ms = 1000"));
            await().atMost(Duration.ofSeconds(90)).until(() -> replay.get("/readyz").statusCode() == 200);
            assertThat(replay.get("/healthz").statusCode()).isEqualTo(200);
            assertThat(replay.get("/metrics").body()).contains("tidemark_replay_timers_pending")
                    .contains("kafka_stream");
            assertThat(replay.terminate()).isIn(0, 143);
        }
    }
}
