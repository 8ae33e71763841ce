package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.ChildNode;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Several replay-streams instances: a crash of one, and two splitting the partitions. */
@LocalClusterTest
class ReplayStreamsGroupTest {

    private static final String EXPIRE_1_DAY = """
            <LifecycleConfiguration><Rule><ID>expire</ID><Filter></Filter><Status>Enabled</Status>\
            <Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>""";

    /**
     * Exactly-once firing across a crash: a child-process instance is killed with SIGKILL while its timers fire, and
     * a successor with an empty state directory restores the timers from the changelog. Every due object yields
     * exactly one committed task: none lost, none twice.
     */
    @Test
    void shouldCommitExactlyOneTaskPerDueObjectAcrossAKillNine(LocalCluster cluster, ClusterNamespace ns,
                                                               @TempDir Path state) throws Exception {
        int objects = 200;
        Map<String, String> settings = settings(cluster, ns, "crash");
        TidemarkConfig config = new TidemarkConfig(settings);
        TopicRegistry topics = TopicRegistry.from(config);
        publish(cluster, config, topics, objects);

        ChildNode first = ChildNode.start(ReplayStreamsChildMain.class, "384m", arguments(settings, state.resolve("one")));
        try {
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(100))
                    .until(() -> committedTasks(config, topics).size() >= objects / 4);
        } finally {
            first.kill();
        }
        int atKill = committedTasks(config, topics).size();
        ChildNode second = ChildNode.start(ReplayStreamsChildMain.class, "384m", arguments(settings, state.resolve("two")));
        try {
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(500))
                    .until(() -> committedTasks(config, topics).size() >= objects);
            Thread.sleep(2_000);   // anything fired twice would be committed by now
        } finally {
            second.close();
        }
        List<ObjectTask> tasks = committedTasks(config, topics);
        assertThat(atKill).as("killed before every timer had fired").isLessThan(objects);
        assertThat(tasks).hasSize(objects);
        assertThat(tasks).extracting(t -> t.target().objectPath()).doesNotHaveDuplicates();
    }

    /** Two instances split the tasks between them; together they fire every timer once. */
    @Test
    void shouldSplitThePartitionsBetweenTwoInstancesAndFireEachTimerOnce(LocalCluster cluster, ClusterNamespace ns,
                                                                          @TempDir Path state) throws Exception {
        int objects = 100;
        Map<String, String> settings = settings(cluster, ns, "split");
        Map<String, String> one = new LinkedHashMap<>(settings);
        one.put("replay-streams.state.dir", state.resolve("one").toString());
        Map<String, String> two = new LinkedHashMap<>(settings);
        two.put("replay-streams.state.dir", state.resolve("two").toString());
        TidemarkConfig config = new TidemarkConfig(settings);
        TopicRegistry topics = TopicRegistry.from(config);
        try (ReplayStreamsService a = new ReplayStreamsService(new TidemarkConfig(one), Clock.systemUTC(),
                new SimpleMeterRegistry());
             ReplayStreamsService b = new ReplayStreamsService(new TidemarkConfig(two), Clock.systemUTC(),
                     new SimpleMeterRegistry())) {
            a.start();
            b.start();
            await().atMost(Duration.ofSeconds(90)).until(() -> a.streamsState() == KafkaStreams.State.RUNNING
                    && b.streamsState() == KafkaStreams.State.RUNNING && a.activeTasks() > 0 && b.activeTasks() > 0);
            assertThat(a.activeTasks() + b.activeTasks()).as("every shard has one owner").isEqualTo(4);
            publish(cluster, config, topics, objects);
            await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(500))
                    .until(() -> committedTasks(config, topics).size() >= objects);
            Thread.sleep(1_000);
            List<ObjectTask> tasks = committedTasks(config, topics);
            assertThat(tasks).hasSize(objects);
            assertThat(tasks).extracting(t -> t.target().objectPath()).doesNotHaveDuplicates();
            assertThat(a.metrics().total("tidemark.replay.timers.fired", "expiration_days")).isPositive();
            assertThat(b.metrics().total("tidemark.replay.timers.fired", "expiration_days")).isPositive();
        }
    }

    private static Map<String, String> settings(LocalCluster cluster, ClusterNamespace ns, String name) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
        // Every service records or checks the cluster's lifecycle settings in ZooKeeper before it starts.
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put("zookeeper.chroot", ns.zookeeperChroot() + "-" + name);
        settings.put("topic.prefix", ns.topicPrefix() + name + ".");
        settings.put("shard.bits", "2");
        settings.put("lifecycle.day.seconds", "10");
        settings.put("lifecycle.test.mode", "true");
        settings.put("lifecycle.due.policy", "exact");
        settings.put("management.port", "0");
        settings.put("management.host", "127.0.0.1");
        settings.put("replay-streams.punctuate.interval.ms", "100");
        settings.put("replay-streams.max.fired.per.tick", "5");
        settings.put("kafka.streams.commit.interval.ms", "100");
        settings.put("kafka.streams.session.timeout.ms", "6000");
        return settings;
    }

    /** The bucket's rule, then one object written per key, each due ten seconds (one day) after its mtime. */
    private static void publish(LocalCluster cluster, TidemarkConfig config, TopicRegistry topics, int objects)
            throws Exception {
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) -1).ensure(topics.all());
        }
        Instant base = Instant.now().plusSeconds(2);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
                cluster.kafkaBootstrapServers(), "max.in.flight.requests.per.connection", 1),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.send(topics.bucketConfigs().record(0, "b", new BucketConfig("b", "Off", false, EXPIRE_1_DAY, "h",
                    null, null))).get();
            for (int i = 0; i < objects; i++) {
                String key = "k" + i;
                // Spread over a few seconds, so firing (and a kill) lands amid the timers.
                MetaLogRecord written = Events.written("b", Events.object(key, base.plusMillis(i * 30L), 1, Map.of()),
                        base);
                String recordKey = ShardPartitioner.key("b", key);
                producer.send(topics.metaLog().record(ShardPartitioner.shardOf(recordKey, topics.metaLog().partitions()),
                        recordKey, written));
            }
            producer.flush();
        }
    }

    private static String[] arguments(Map<String, String> settings, Path stateDir) {
        List<String> args = new ArrayList<>();
        settings.forEach((k, v) -> args.add(k + "=" + v));
        args.add("replay-streams.state.dir=" + stateDir);
        return args.toArray(String[]::new);
    }

    private static List<ObjectTask> committedTasks(TidemarkConfig config, TopicRegistry topics) {
        return TopicReader.committedValues(config.consumerProperties(), topics.objectTasks(), Duration.ofSeconds(30));
    }
}
