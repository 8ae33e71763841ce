package io.tidemark.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.ShardFunction;
import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class TopicRegistryTest {

    private final TopicRegistry registry = TopicRegistry.from(new TidemarkConfig(Map.of()));

    @Test
    void shouldNameEveryTopicWithThePrefix() {
        assertThat(registry.all()).extracting(TopicSpec::name).containsExactly("tidemark.meta-log", "tidemark.rearm",
                "tidemark.bucket-configs", "tidemark.bucket-tasks", "tidemark.object-tasks", "tidemark.object-tasks.dlq",
                "tidemark.lifecycle-events", "tidemark.populator-checkpoint", "tidemark.replay-streams.dlq");
        TopicRegistry custom = TopicRegistry.from(new TidemarkConfig(Map.of("topic.prefix", "prod.lc.", "shard.bits", "6")));
        assertThat(custom.metaLog().name()).isEqualTo("prod.lc.meta-log");
        assertThat(custom.objectTasks().partitions()).isEqualTo(64);
    }

    @Test
    void shouldShardTheMetaLogAndObjectTasksAndCompactBucketConfigs() {
        assertThat(registry.metaLog().partitions()).isEqualTo(16);
        assertThat(registry.metaLog().sharded()).isTrue();
        assertThat(registry.rearm().partitions()).as("co-partitioned with the meta-log").isEqualTo(16);
        assertThat(registry.rearm().sharded()).isTrue();
        assertThat(registry.objectTasks().partitions()).isEqualTo(16);
        assertThat(registry.objectTasks().sharded()).isTrue();
        assertThat(registry.bucketConfigs().cleanupPolicy()).isEqualTo("compact");
        assertThat(registry.populatorCheckpoint().cleanupPolicy()).isEqualTo("compact");
        assertThat(registry.populatorCheckpoint().partitions()).isEqualTo(1);
        assertThat(registry.metaLog().cleanupPolicy()).isEqualTo("delete");
        assertThat(registry.metaLog().configs()).containsEntry("retention.ms", String.valueOf(7L * 24 * 3600 * 1000));
    }

    /**
     * Parked work is never dropped by age, and queued work outlives any plausible backlog (architecture.md, Topics and
     * keys, and invariant 6).
     */
    @Test
    void shouldKeepParkedTasksUntilReplayedOrPurgedAndTasksFarLongerThanAnyBacklog() {
        assertThat(registry.objectTasksDlq().cleanupPolicy()).as("a tombstone per replay or purge; nothing by age")
                .isEqualTo("compact");
        assertThat(registry.objectTasksDlq().configs()).containsEntry("retention.ms", "-1");
        assertThat(registry.replayStreamsDlq().configs()).containsEntry("retention.ms", "-1");
        long thirtyDays = 30L * 24 * 3600 * 1000;
        for (TopicSpec<?, ?> tasks : java.util.List.of(registry.objectTasks(), registry.bucketTasks())) {
            assertThat(Long.parseLong(tasks.configs().get("retention.ms"))).as(tasks.name())
                    .isGreaterThanOrEqualTo(thirtyDays);
        }
        TopicRegistry bounded = TopicRegistry.from(new TidemarkConfig(Map.of("topic.dlq.retention.ms", "86400000")));
        assertThat(bounded.objectTasksDlq().cleanupPolicy()).isEqualTo("compact,delete");
        assertThat(bounded.objectTasksDlq().configs()).containsEntry("retention.ms", "86400000");
    }

    @Test
    void shouldPartitionByTheObjectsShard() {
        String key = ShardPartitioner.key("my-bucket", "path/to/object.txt");
        assertThat(ShardPartitioner.shardOf(key, 16)).isEqualTo(7);
        assertThat(ShardPartitioner.shardOf(key, 16)).isEqualTo(ShardFunction.standard().shardOf("my-bucket",
                "path/to/object.txt"));
        assertThatThrownBy(() -> ShardPartitioner.shardOf(key, 12)).hasMessageContaining("power-of-two");
    }

    @Test
    void shouldRoundTripEveryValueThroughItsSerde() {
        MetaLogRecord record = MetaLogRecord.newBuilder().setTsNs(5).setBucket("b").setLogicalKey("k")
                .setKind(EventKind.VERSION_CREATED).setShard(3).build();
        var metaLog = registry.metaLog().valueSerde();
        assertThat(metaLog.deserializer().deserialize("t", metaLog.serializer().serialize("t", record))).isEqualTo(record);

        ObjectTask task = new ObjectTask("a1", "delete_version", "NONCURRENT_DAYS",
                new ObjectTask.Target("b", "k", "v1"),
                new ObjectTask.Details(new ObjectTask.ExpectedIdentity(1, 2, "3,ab", "ff"), "r", "0c8cc7219c442e3e",
                        Instant.parse("2026-01-01T00:00:00Z"), "replay", null));
        var tasks = registry.objectTasks().valueSerde();
        byte[] json = tasks.serializer().serialize("t", task);
        assertThat(new String(json)).contains("\"dueAt\":\"2026-01-01T00:00:00Z\"");
        assertThat(tasks.deserializer().deserialize("t", json)).isEqualTo(task);

        BucketTask bucketTask = new BucketTask("processBucket", new BucketTask.Target("b"),
                new BucketTask.Details("scan-1", BucketTask.Mode.recovery, "", null));
        var buckets = registry.bucketTasks().valueSerde();
        assertThat(buckets.deserializer().deserialize("t", buckets.serializer().serialize("t", bucketTask)))
                .isEqualTo(bucketTask);
    }

    @Test
    void shouldFailClearlyOnAPoisonRecord() {
        assertThatThrownBy(() -> registry.objectTasks().valueSerde().deserializer().deserialize("t", "{not json".getBytes()))
                .isInstanceOf(SerializationException.class).hasMessageContaining("is not a valid ObjectTask");
        assertThatThrownBy(() -> registry.metaLog().valueSerde().deserializer().deserialize("t", new byte[] {(byte) 0xff}))
                .isInstanceOf(SerializationException.class).hasMessageContaining("MetaLogRecord");
        assertThat(registry.bucketConfigs().valueSerde().deserializer().deserialize("t", null)).isNull();
    }
}
