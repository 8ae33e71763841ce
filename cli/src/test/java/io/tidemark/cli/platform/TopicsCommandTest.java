package io.tidemark.cli.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.cli.CliRunner;
import io.tidemark.cli.CliRunner.Result;
import io.tidemark.localcluster.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.localcluster.LocalClusterTest;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Test;

@LocalClusterTest
class TopicsCommandTest {

    private static Result topics(LocalCluster cluster, String prefix, String... args) {
        String[] full = new String[args.length + 7];
        full[0] = "topics";
        System.arraycopy(args, 0, full, 1, args.length);
        int i = args.length + 1;
        full[i++] = "--set";
        full[i++] = "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers();
        full[i++] = "--set";
        full[i++] = "topic.prefix=" + prefix;
        full[i++] = "--set";
        full[i] = "shard.bits=3";
        return CliRunner.run(full);
    }

    @Test
    void shouldCreateEveryTopicOnceAndDescribeThem(LocalCluster cluster, ClusterNamespace ns) {
        String prefix = ns.topicPrefix() + "a.";
        Result before = topics(cluster, prefix, "describe");
        assertThat(before.exitCode()).isEqualTo(1);
        assertThat(before.out()).contains("missing");

        Result created = topics(cluster, prefix, "create");
        assertThat(created.exitCode()).as(created.err()).isZero();
        assertThat(created.out()).contains(prefix + "meta-log").contains("8/8").contains("created");
        assertThat(created.out().lines().filter(l -> l.contains("created")).count()).isEqualTo(9);
        assertThat(created.out()).contains(prefix + "rearm").contains(prefix + "replay-streams.dlq");
        assertThat(created.out()).contains(prefix + "bucket-configs").contains("compact");

        Result again = topics(cluster, prefix, "create");
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).doesNotContain("created");
        assertThat(topics(cluster, prefix, "describe").exitCode()).isZero();
    }

    @Test
    void shouldRefuseATopicWithTheWrongPartitionCountOrCleanupPolicy(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String prefix = ns.topicPrefix() + "b.";
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(prefix + "meta-log", 3, (short) 1),
                    new NewTopic(prefix + "bucket-configs", 1, (short) 1))).all().get();
        }
        Result r = topics(cluster, prefix, "create");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains(prefix + "meta-log: has 3 partitions, needs 8")
                .contains(prefix + "bucket-configs: cleanup.policy is delete, needs compact");
        assertThat(topics(cluster, prefix, "describe").out()).contains("has 3 partitions, needs 8");
    }

    @Test
    void shouldReportABadSettingByName(LocalCluster cluster, ClusterNamespace ns) {
        Result r = CliRunner.run("topics", "describe", "--set", "shard.bits=99");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("shard.bits");
    }
}
