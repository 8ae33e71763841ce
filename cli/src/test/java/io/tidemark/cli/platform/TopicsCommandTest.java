package io.tidemark.cli.platform;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.cli.CliRunner;
import io.tidemark.cli.CliRunner.Result;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
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
    void shouldRefuseATopicWithTheWrongPartitionCountOrACleanupPolicyThatWouldDropRecords(LocalCluster cluster,
                                                                                         ClusterNamespace ns)
            throws Exception {
        String prefix = ns.topicPrefix() + "b.";
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(prefix + "meta-log", 3, (short) 1),
                    new NewTopic(prefix + "bucket-tasks", 8, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                    .all().get();
        }
        Result r = topics(cluster, prefix, "create");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains(prefix + "meta-log: has 3 partitions, needs 8")
                .contains(prefix + "bucket-tasks: cleanup.policy is compact, needs delete");
        assertThat(topics(cluster, prefix, "describe").out()).contains("has 3 partitions, needs 8");
    }

    /**
     * An upgrade that stops retention from dropping work must reach topics created by an older version: settings that
     * keep more (compaction instead of deletion, a longer retention) are applied to existing topics.
     */
    @Test
    void shouldMakeExistingTopicsKeepWhatTheyMustKeep(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        String prefix = ns.topicPrefix() + "c.";
        String week = String.valueOf(7L * 24 * 3600 * 1000);
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.kafkaBootstrapServers()))) {
            admin.createTopics(List.of(
                    new NewTopic(prefix + "object-tasks.dlq", 8, (short) 1).configs(Map.of("retention.ms", week)),
                    new NewTopic(prefix + "object-tasks", 8, (short) 1).configs(Map.of("retention.ms", week)),
                    new NewTopic(prefix + "bucket-configs", 1, (short) 1))).all().get();

            Result r = topics(cluster, prefix, "create");
            assertThat(r.exitCode()).as(r.err()).isZero();

            var configs = admin.describeConfigs(List.of(topic(prefix + "object-tasks.dlq"), topic(prefix + "object-tasks"),
                    topic(prefix + "bucket-configs"))).all().get();
            assertThat(configs.get(topic(prefix + "object-tasks.dlq")).get("cleanup.policy").value()).isEqualTo("compact");
            assertThat(configs.get(topic(prefix + "object-tasks.dlq")).get("retention.ms").value()).isEqualTo("-1");
            assertThat(configs.get(topic(prefix + "object-tasks")).get("retention.ms").value())
                    .isEqualTo(String.valueOf(30L * 24 * 3600 * 1000));
            assertThat(configs.get(topic(prefix + "bucket-configs")).get("cleanup.policy").value()).isEqualTo("compact");
        }
    }

    private static org.apache.kafka.common.config.ConfigResource topic(String name) {
        return new org.apache.kafka.common.config.ConfigResource(org.apache.kafka.common.config.ConfigResource.Type.TOPIC,
                name);
    }

    @Test
    void shouldReportABadSettingByName(LocalCluster cluster, ClusterNamespace ns) {
        Result r = CliRunner.run("topics", "describe", "--set", "shard.bits=99");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.err()).contains("shard.bits");
    }
}
