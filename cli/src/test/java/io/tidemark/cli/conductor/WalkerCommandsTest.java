package io.tidemark.cli.conductor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.cli.ServicesCommand;
import io.tidemark.cli.ServicesMain;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.localcluster.ServiceProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code tidemark bucket-processor} and {@code tidemark conductor} as operators run them. */
@LocalClusterTest
class WalkerCommandsTest {

    @Test
    void shouldRunTheBucketProcessorServeProbesAndMetricsAndStopOnSigterm(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ServiceProcess processor = ServiceProcess.start(ServicesMain.class, "256m", cluster.environment(),
                "bucket-processor",
                "--set", "topic.prefix=" + ns.topicPrefix() + "bp.", "--set", "management.port=0",
                "--set", "management.host=127.0.0.1", "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-bp")) {
            assertThat(processor.log()).anyMatch(l -> l.contains("bucket-processor.page.size = 1000"));
            await().atMost(Duration.ofSeconds(60)).until(() -> processor.get("/readyz").statusCode() == 200);
            assertThat(processor.get("/metrics").body()).contains("tidemark_bucket_processor_entries_listed_total")
                    .contains("kafka_consumer");
            assertThat(processor.terminate()).isIn(0, 143);
        }
    }

    @Test
    void shouldRunTheConductorOnAScheduleAsAService(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ServiceProcess conductor = ServiceProcess.start(ServicesMain.class, "256m", cluster.environment(),
                "conductor",
                "--schedule", "0 3 * * *", "--set", "topic.prefix=" + ns.topicPrefix() + "cs.",
                "--set", "management.port=0", "--set", "management.host=127.0.0.1",
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-cs")) {
            await().atMost(Duration.ofSeconds(60)).until(() -> conductor.get("/readyz").statusCode() == 200);
            assertThat(conductor.log()).anyMatch(l -> l.contains("conductor scheduled on \"0 3 * * *\""));
            assertThat(conductor.get("/metrics").body()).contains("tidemark_conductor_passes_total");
            assertThat(conductor.terminate()).isIn(0, 143);
        }
    }

    @Test
    void shouldRunOnePassOnceAndSayHowItWentInTheExitStatus(LocalCluster cluster, ClusterNamespace ns) {
        StringWriter out = new StringWriter();
        CommandLine cli = new CommandLine(new ServicesCommand()).setOut(new PrintWriter(out));
        int status = cli.execute("conductor", "--once",
                "--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-once",
                "--set", "topic.prefix=" + ns.topicPrefix() + "once.");
        assertThat(status).isZero();
        assertThat(out.toString()).contains("pass ran: seeded=0");
    }

    @Test
    void shouldRefuseToRunWithoutOnceOrSchedule() {
        StringWriter err = new StringWriter();
        CommandLine cli = new CommandLine(new ServicesCommand()).setErr(new PrintWriter(err));
        assertThat(cli.execute("conductor")).isEqualTo(2);
        assertThat(err.toString()).contains("--once").contains("--schedule");
    }
}
