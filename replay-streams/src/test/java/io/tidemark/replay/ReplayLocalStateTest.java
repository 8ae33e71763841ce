package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.BucketConfig;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 27 item 10 (architecture.md, Local state): local state is a cache. State that belongs to another cluster, or a
 * global store checkpointed past the end of a topic that was recreated, must be discarded and rebuilt at start — never
 * a service that fails at every start until someone finds and deletes a directory.
 */
@LocalClusterTest
class ReplayLocalStateTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    private static Map<String, String> settings(LocalCluster cluster, ClusterNamespace ns, String name, Path data) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put("zookeeper.chroot", ns.zookeeperChroot() + "-" + name);
        settings.put("topic.prefix", ns.topicPrefix() + name + ".");
        settings.put("shard.bits", "1");
        settings.put("management.port", "0");
        settings.put("management.host", "127.0.0.1");
        settings.put("data.dir", data.toString());
        settings.put("kafka.streams.commit.interval.ms", "100");
        return settings;
    }

    private static void configs(TidemarkConfig config, TopicRegistry topics, String... buckets) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                config.kafkaBootstrapServers(), "max.in.flight.requests.per.connection", 1),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            for (String bucket : buckets) {
                producer.send(topics.bucketConfigs().record(0, bucket, new BucketConfig(bucket, "Off", false,
                        "<LifecycleConfiguration/>", "h", null, null))).get();
            }
        }
    }

    private static ReplayStreamsService started(TidemarkConfig config) {
        ReplayStreamsService service = new ReplayStreamsService(config, Clock.systemUTC(), new SimpleMeterRegistry());
        service.start();
        return service;
    }

    @Test
    void shouldRebuildAGlobalStoreCheckpointedPastTheEndOfItsRecreatedTopic(LocalCluster cluster, ClusterNamespace ns,
                                                                           @TempDir Path data) throws Exception {
        TidemarkConfig config = new TidemarkConfig(settings(cluster, ns, "recreated", data));
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) -1).ensure(topics.all());
        }
        configs(config, topics, "b1", "b2", "b3");
        try (ReplayStreamsService first = started(config)) {
            await().atMost(WAIT).until(() -> first.streamsState() == KafkaStreams.State.RUNNING
                    && first.bucketConfig("b3").isPresent());
        }
        assertThat(data.resolve("replay-streams")).as("under the data directory").isDirectory();

        try (Admin admin = Admin.create(config.adminProperties())) {
            admin.deleteTopics(List.of(topics.bucketConfigs().name())).all().get();
            await().atMost(WAIT).until(() -> !admin.listTopics().names().get().contains(topics.bucketConfigs().name()));
            await().atMost(WAIT).ignoreExceptions().until(() -> {
                new TopicAdmin(admin, (short) -1).ensure(List.of(topics.bucketConfigs()));
                return true;
            });
        }
        configs(config, topics, "b9");

        try (ReplayStreamsService again = started(config)) {
            await().atMost(WAIT).until(() -> again.streamsState() == KafkaStreams.State.RUNNING
                    && again.bucketConfig("b9").isPresent());
            assertThat(again.bucketConfig("b3")).as("the old topic's configurations are gone with it").isEmpty();
            assertThat(again.metrics().total("tidemark.replay.local.state.discarded", "global-topic-recreated"))
                    .isEqualTo(1);
        }
    }

    @Test
    void shouldDiscardStateWrittenAgainstAnotherKafkaCluster(LocalCluster cluster, ClusterNamespace ns,
                                                             @TempDir Path data) throws Exception {
        TidemarkConfig config = new TidemarkConfig(settings(cluster, ns, "moved", data));
        Path application = data.resolve("replay-streams").resolve(ConsumerGroups.from(config).replayStreams());
        Files.createDirectories(application.resolve("0_0"));
        Files.writeString(application.resolve(LocalState.MARKER_FILE), "kafka.cluster.id=a-cluster-that-is-gone\n");
        Files.writeString(application.resolve("0_0").resolve("leftover"), "state of another cluster");

        try (ReplayStreamsService service = started(config)) {
            await().atMost(WAIT).until(() -> service.streamsState() == KafkaStreams.State.RUNNING);
            assertThat(application.resolve("0_0").resolve("leftover")).doesNotExist();
            assertThat(Files.readString(application.resolve(LocalState.MARKER_FILE)))
                    .doesNotContain("a-cluster-that-is-gone");
        }
    }
}
