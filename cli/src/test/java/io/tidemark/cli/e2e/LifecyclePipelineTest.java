package io.tidemark.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.cli.status.StatusReader;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.topics.GroupLag;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first stages of the pipeline on a real broker and ZooKeeper: S3 operations on the emulator, the populator
 * tailing its meta-log, replay-streams arming and firing timers, and the object processor deleting through
 * {@code LifecycleDelete}. An object that falls due is really removed; one outside the rule, or overwritten after
 * the decision, is not removed early.
 */
@LocalClusterTest
class LifecyclePipelineTest {

    private static final String EXPIRE_TMP_AFTER_1_DAY = """
            <LifecycleConfiguration><Rule><ID>tmp</ID><Filter><Prefix>tmp/</Prefix></Filter><Status>Enabled</Status>\
            <Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>""";

    /** Its day of four seconds after the entry's modification time (exact due policy, whole seconds). */
    private static final String NONCURRENT_AFTER_1_DAY = """
            <LifecycleConfiguration><Rule><ID>old</ID><Filter><Prefix></Prefix></Filter><Status>Enabled</Status>\
            <NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration>\
            </Rule></LifecycleConfiguration>""";

    private static Instant dueOf(S3Gateway s3, String key) {
        return Instant.ofEpochSecond(s3.latest("b", key).orElseThrow().entry().getAttributes().getMtime()).plusSeconds(4);
    }

    private static void awaitInstant(Instant at) throws InterruptedException {
        long wait = Duration.between(Instant.now(), at).toMillis();
        if (wait > 0) {
            Thread.sleep(wait);
        }
    }

    @Test
    void shouldDeleteAnObjectOnceItsDayHasPassedAndKeepTheRest(LocalCluster cluster, ClusterNamespace ns,
                                                             @TempDir Path state) throws Exception {
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral()
                .withHeartbeatInterval(Duration.ofMillis(500)), Clock.systemUTC()).start()) {
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
            settings.put("zookeeper.connect", cluster.zookeeperConnect());
            settings.put("zookeeper.chroot", ns.zookeeperChroot() + "-pipeline");
            settings.put("filer.address", emulator.filerAddress());
            settings.put("s3.grpc.address", emulator.s3GrpcAddress());
            settings.put("topic.prefix", ns.topicPrefix() + "pipeline.");
            settings.put("shard.bits", "2");
            settings.put("lifecycle.day.seconds", "4");
            settings.put("lifecycle.test.mode", "true");
            settings.put("lifecycle.due.policy", "exact");
            settings.put("management.port", "0");
            settings.put("populator.batch.max.ms", "50");
            settings.put("replay-streams.punctuate.interval.ms", "200");
            settings.put("replay-streams.state.dir", state.toString());
            settings.put("object-processor.deletes.per.second", "unlimited");
            settings.put("kafka.streams.commit.interval.ms", "100");
            TidemarkConfig config = new TidemarkConfig(settings);
            S3Gateway s3 = emulator.s3();
            s3.createBucket("b", false);
            s3.putLifecycle("b", EXPIRE_TMP_AFTER_1_DAY);
            s3.createBucket("nv", false);
            s3.putLifecycle("nv", NONCURRENT_AFTER_1_DAY);

            try (PopulatorService populator = new PopulatorService(config, Clock.systemUTC(), new SimpleMeterRegistry());
                 ReplayStreamsService replay = new ReplayStreamsService(config, Clock.systemUTC(),
                         new SimpleMeterRegistry());
                 ObjectProcessorService processor = new ObjectProcessorService(config, Clock.systemUTC(),
                         new SimpleMeterRegistry())) {
                populator.start();
                replay.start();
                processor.start();
                await().atMost(Duration.ofSeconds(60)).until(() -> replay.streamsState() == KafkaStreams.State.RUNNING
                        && replay.bucketConfig("b").isPresent() && replay.bucketConfig("nv").isPresent());

                // Issue 35 item 1: an object written before versioning is its key's null version; overwritten once
                // versioning is on, it is noncurrent from then, with no stamp from the gateway, and goes a day later.
                s3.putObject("nv", "k", 10, Map.of(), Map.of());
                s3.setVersioning("nv", io.tidemark.lifecycle.engine.BucketVersioning.ENABLED);
                String successor = s3.putObject("nv", "k", 20, Map.of(), Map.of());
                Instant nullDue = Instant.ofEpochSecond(s3.version("nv", "k", successor).orElseThrow().entry()
                        .getAttributes().getMtime()).plusSeconds(4);

                s3.putObject("b", "tmp/a", 10, Map.of(), Map.of());
                s3.putObject("b", "keep/b", 10, Map.of(), Map.of());
                s3.putObject("b", "tmp/c", 10, Map.of(), Map.of());
                Instant firstDue = dueOf(s3, "tmp/c");
                Thread.sleep(2_000);
                s3.putObject("b", "tmp/c", 20, Map.of(), Map.of());   // rewritten: its day starts again
                Instant rewrittenDue = dueOf(s3, "tmp/c");
                assertThat(rewrittenDue).isAfter(firstDue);

                // The first write's day passes, and tmp/a (written with it) goes; the rewritten tmp/c stays.
                await().atMost(Duration.ofSeconds(60)).until(() -> s3.latest("b", "tmp/a").isEmpty());
                awaitInstant(firstDue.plusMillis(500));
                assertThat(s3.latest("b", "tmp/c")).as("not removed on the first write's due time").isPresent();
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(20))
                        .until(() -> s3.latest("b", "tmp/c").isEmpty());
                assertThat(Instant.now()).as("removed no earlier than the rewrite's due time").isAfterOrEqualTo(
                        rewrittenDue);
                await().atMost(Duration.ofSeconds(30)).until(() -> processor.metrics().finishedCount("DONE") >= 2);
                assertThat(s3.latest("b", "keep/b")).as("outside the rule").isPresent();
                await().atMost(Duration.ofSeconds(30)).until(() -> s3.version("nv", "k", "null").isEmpty());
                assertThat(Instant.now()).as("a day after its successor, not before").isAfterOrEqualTo(nullDue);
                assertThat(s3.latest("nv", "k").orElseThrow().versionId()).isEqualTo(successor);
                // The rewrite replaced tmp/c's timer: two timers fired in all, none for the first write of tmp/c.
                assertThat(replay.metrics().total("tidemark.replay.timers.fired", "expiration_days")).isEqualTo(2);
                await().atMost(Duration.ofSeconds(30)).until(() -> processor.metrics().finishedCount("DONE") == 3);
                assertThat(processor.metrics().finishedCount("NOOP_RESOLVED")).isZero();

                // Issue 33: idle after the burst, status finds nothing left to process, while the consumer-groups
                // tool's lag still counts the commit markers past the object processor's committed offsets. (No
                // bucket processor runs here: the walks the populator asked for are real backlog, left out.)
                StatusReader status = new StatusReader(config, new StatusReader.Thresholds(0, Duration.ofDays(1)));
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(status.read().partitions()
                        .stream().filter(p -> !p.group().endsWith("bucket-processor"))).isNotEmpty()
                        .allSatisfy(p -> assertThat(p.backlog()).as(p.toString()).isZero()));
                assertThat(status.read().partitions().stream().filter(p -> p.group().endsWith("object-processor"))
                        .mapToLong(GroupLag.Partition::lag).sum()).as("commit markers").isPositive();
            }
        }
    }
}
