package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.replay.ReplayStreamsMetrics;
import io.tidemark.replay.ReplayTopology;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.topics.TopicRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The re-arm contract between the walker and replay-streams, without a broker: a recovery walk after a rule edit
 * writes re-arm records, and replay-streams, reading them beside the meta-log, times the objects under the new rule.
 * A lifecycle day lasts ten seconds on both sides.
 */
class RecoveryRearmTest {

    private static String expireAfter(int days) {
        return "<LifecycleConfiguration><Rule><ID>expire</ID><Filter><Prefix></Prefix></Filter><Status>Enabled"
                + "</Status><Expiration><Days>" + days + "</Days></Expiration></Rule></LifecycleConfiguration>";
    }

    private final WalkFixture f = new WalkFixture();
    private final TidemarkConfig config = new TidemarkConfig(Map.of("shard.bits", "2", "lifecycle.day.seconds", "10",
            "lifecycle.test.mode", "true", "lifecycle.due.policy", "exact", "replay-streams.punctuate.interval.ms",
            "1000"));
    private final TopicRegistry topics = TopicRegistry.from(config);
    private TopologyTestDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
        f.close();
    }

    @Test
    void shouldRetimeTimersUnderTheEditedRuleFromARecoveryWalk() {
        f.calendar = config.calendar();
        f.s3.createBucket("b", false);
        f.s3.putLifecycle("b", expireAfter(10));
        f.s3.putObject("b", "logs/a", 1, Map.of(), Map.of());
        f.s3.putObject("b", "logs/b", 1, Map.of(), Map.of());
        Instant created = f.clock.instant();

        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "rearm-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, "target/tmp/rearm-test-" + System.nanoTime());
        driver = new TopologyTestDriver(ReplayTopology.build(ReplayTopology.Params.from(config,
                new ReplayStreamsMetrics(new SimpleMeterRegistry()))), props, created);
        TestInputTopic<String, BucketConfig> configs = driver.createInputTopic(topics.bucketConfigs().name(),
                Serdes.String().serializer(), topics.bucketConfigs().valueSerde().serializer());
        TestInputTopic<String, MetaLogRecord> rearm = driver.createInputTopic(topics.rearm().name(),
                Serdes.String().serializer(), topics.rearm().valueSerde().serializer());
        TestOutputTopic<String, ObjectTask> tasks = driver.createOutputTopic(topics.objectTasks().name(),
                Serdes.String().deserializer(), topics.objectTasks().valueSerde().deserializer());

        // The first recovery walk arms both objects under "10 days" (100 s).
        configs.pipeInput("b", config("b"));
        recoveryWalk(rearm);

        // Five seconds later the rule becomes "3 days" (30 s): the populator asks for another recovery walk.
        advance(Duration.ofSeconds(5));
        f.s3.putLifecycle("b", expireAfter(3));
        configs.pipeInput("b", config("b"));
        recoveryWalk(rearm);

        advance(Duration.ofSeconds(24));
        assertThat(tasks.readValuesToList()).as("not yet 30 s after creation").isEmpty();
        advance(Duration.ofSeconds(2));
        assertThat(tasks.readValuesToList()).extracting(t -> t.target().objectPath())
                .containsExactlyInAnyOrder("logs/a", "logs/b");
        assertThat(f.walk("b", BucketTask.Mode.recovery, 1000).tasks()).as("the walk agrees they are due")
                .hasSize(2);
    }

    private BucketConfig config(String bucket) {
        return BucketEntryConfig.read(bucket, f.emulator.store().lookup("/buckets", bucket).orElseThrow(),
                config.ruleReader()).orElseThrow();
    }

    private void recoveryWalk(TestInputTopic<String, MetaLogRecord> rearm) {
        WalkFixture.Walk walk = f.walk("b", BucketTask.Mode.recovery, 1000);
        assertThat(walk.tasks()).isEmpty();
        assertThat(walk.rearms()).hasSize(2);
        walk.pages().forEach(p -> p.output().rearms.forEach(r -> rearm.pipeInput(r.key(), r.value())));
    }

    private void advance(Duration by) {
        for (long s = 0; s < by.toSeconds(); s++) {
            f.clock.advance(Duration.ofSeconds(1));
            driver.advanceWallClockTime(Duration.ofSeconds(1));
        }
    }
}
