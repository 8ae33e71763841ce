package io.tidemark.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.cli.TidemarkCommand;
import io.tidemark.localcluster.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.localcluster.LocalClusterTest;
import io.tidemark.topics.GroupLag;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

@LocalClusterTest
class StatusCommandTest {

    private static int run(StringWriter out, String... args) {
        return new CommandLine(new TidemarkCommand()).setOut(new PrintWriter(out)).execute(args);
    }

    @Test
    void shouldReportDegradedWithTheReasonsWhenNoServiceRuns(LocalCluster cluster, ClusterNamespace ns) {
        StringWriter out = new StringWriter();
        int status = run(out, "status", "--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-status",
                "--set", "topic.prefix=" + ns.topicPrefix() + "status.");
        assertThat(status).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).startsWith("status: degraded").contains("no populator leads")
                .contains("no replay-streams instance is reporting");
    }

    @Test
    void shouldSayUnreachableWhenKafkaDoesNotAnswer() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        StringWriter out = new StringWriter();
        int status = run(out, "status", "--set", "kafka.bootstrap.servers=127.0.0.1:" + closedPort,
                "--set", "kafka.admin.request.timeout.ms=1000", "--set", "kafka.admin.default.api.timeout.ms=2000");
        assertThat(status).isEqualTo(2);
        assertThat(out.toString()).startsWith("status: unreachable").contains("does not answer");
    }

    @Test
    void shouldPrintOffsetsLikeTheConsumerGroupsToolAndWalkFreshness() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        StatusReport report = new StatusReport(StatusReport.Health.DEGRADED, List.of("3 object task(s) parked"),
                List.of(new GroupLag.Partition("t.object-processor", "t.object-tasks", 0, 40, 42, 2),
                        new GroupLag.Partition("t.object-processor", "t.object-tasks", 1, -1, 5, 5)),
                "host-1", now.minusSeconds(3), 120, 7L, 1,
                List.of(new StatusReport.Walk("photos", true, now.minusSeconds(3_700), null, 0),
                        new StatusReport.Walk("logs", true, null, "steady-logs-1", 4)), 3, 0);
        StringWriter text = new StringWriter();
        StatusCommand.print(report, new PrintWriter(text), now);
        assertThat(text.toString()).contains("status: degraded", "  - 3 object task(s) parked")
                .containsPattern("t\\.object-processor +t\\.object-tasks +0 +40 +42 +2")
                .containsPattern("t\\.object-tasks +1 +- +5 +5")
                .contains("led by host-1, 120 events published", "(3s ago)", "7 timers pending on 1 instance(s)")
                .contains("1h1m ago", "never", "steady-logs-1, 4 pages");
    }
}
