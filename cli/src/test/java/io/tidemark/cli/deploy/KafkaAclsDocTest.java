package io.tidemark.cli.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.populator.PopulatorService;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * docs/deploy.md's list of Kafka ACLs names what the code uses: every topic of the registry, every consumer group and
 * every transactional id, under the default prefix. A topic or group renamed or added in the code fails here until
 * the list follows.
 */
class KafkaAclsDocTest {

    private static final TidemarkConfig DEFAULTS = new TidemarkConfig(Map.of());

    private static String aclSection() {
        String deploy = DeployFiles.read("docs/deploy.md");
        int start = deploy.indexOf("### Kafka ACLs");
        assertThat(start).as("docs/deploy.md has a section \"Kafka ACLs\"").isNotNegative();
        int end = deploy.indexOf("\n## ", start);
        return end < 0 ? deploy.substring(start) : deploy.substring(start, end);
    }

    @Test
    void shouldNameEveryTopicGroupAndTransactionalIdTheServicesUse() {
        String acls = aclSection();
        String prefix = DEFAULTS.topicPrefix();
        assertThat(acls).contains("`" + prefix + "`");
        for (TopicSpec<?, ?> topic : TopicRegistry.from(DEFAULTS).all()) {
            assertThat(acls).as("topic " + topic.name()).contains("`" + topic.name().substring(prefix.length()) + "`");
        }
        ConsumerGroups groups = ConsumerGroups.from(DEFAULTS);
        for (String group : List.of(groups.replayStreams(), groups.objectProcessor(), groups.bucketProcessor())) {
            assertThat(acls).as("group " + group).contains("`" + group + "`");
        }
        assertThat(acls).as("the populator's transactional id")
                .contains("`" + PopulatorService.transactionalId(DEFAULTS) + "`");
        // Streams' exactly-once producers: <application.id>-<process id>-<thread>; the bucket processor's:
        // <prefix>bucket-processor-<uuid>; the changelogs: <application.id>-<store>-changelog.
        assertThat(acls).contains("PREFIXED `" + groups.replayStreams() + "-`")
                .contains("PREFIXED topic `" + groups.replayStreams() + "-`")
                .contains("PREFIXED `" + groups.bucketProcessor() + "-`")
                .contains("`" + TopicRegistry.from(DEFAULTS).objectTasksDlq().name() + ".replay`");
        for (String principal : List.of("topics job", "populator", "replay-streams", "object-processor",
                "bucket-processor", "conductor")) {
            assertThat(acls).as("a row for " + principal).contains("\n| " + principal + " |");
        }
    }
}
