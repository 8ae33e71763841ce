package io.tidemark.topics;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.DeadLetter;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.Serdes;

/**
 * The one place that names Tidemark's topics and ties each to its key and value serdes, partition count and cleanup
 * policy (architecture.md, Topics and keys). Names carry the configured prefix; the sharded topics have 2^shard.bits
 * partitions.
 */
public final class TopicRegistry {

    private final TopicSpec<String, MetaLogRecord> metaLog;
    private final TopicSpec<String, MetaLogRecord> rearm;
    private final TopicSpec<byte[], byte[]> replayStreamsDlq;
    private final TopicSpec<String, BucketConfig> bucketConfigs;
    private final TopicSpec<String, BucketTask> bucketTasks;
    private final TopicSpec<String, ObjectTask> objectTasks;
    private final TopicSpec<String, DeadLetter> objectTasksDlq;
    private final TopicSpec<String, LifecycleEvent> lifecycleEvents;
    private final TopicSpec<String, PopulatorCheckpoint> populatorCheckpoint;

    public TopicRegistry(String prefix, int shardBits, long metaLogRetentionMs, long tasksRetentionMs) {
        this(prefix, shardBits, metaLogRetentionMs, tasksRetentionMs, -1);
    }

    /**
     * @param deadLetterRetentionMs how long parked records are kept; -1 (the default): until replayed or purged
     */
    public TopicRegistry(String prefix, int shardBits, long metaLogRetentionMs, long tasksRetentionMs,
                         long deadLetterRetentionMs) {
        int shards = 1 << shardBits;
        Map<String, String> metaLogRetention = Map.of(TopicConfig.RETENTION_MS_CONFIG, String.valueOf(metaLogRetentionMs));
        Map<String, String> taskRetention = Map.of(TopicConfig.RETENTION_MS_CONFIG, String.valueOf(tasksRetentionMs));
        Map<String, String> deadLetterRetention = Map.of(TopicConfig.RETENTION_MS_CONFIG,
                String.valueOf(deadLetterRetentionMs));
        metaLog = new TopicSpec<>(prefix + "meta-log", Serdes.String(),
                new ProtobufSerde<>(MetaLogRecord.parser(), "MetaLogRecord"), shards, TopicConfig.CLEANUP_POLICY_DELETE,
                metaLogRetention, true);
        // Written only by recovery walks, read beside the meta-log: never the populator's own topic (architecture.md,
        // Cursors).
        rearm = new TopicSpec<>(prefix + "rearm", Serdes.String(),
                new ProtobufSerde<>(MetaLogRecord.parser(), "MetaLogRecord"), shards, TopicConfig.CLEANUP_POLICY_DELETE,
                metaLogRetention, true);
        // Records replay-streams could not read or process, as Kafka Streams' dead-letter handler writes them.
        replayStreamsDlq = new TopicSpec<>(prefix + "replay-streams.dlq", Serdes.ByteArray(), Serdes.ByteArray(), 1,
                TopicConfig.CLEANUP_POLICY_DELETE, deadLetterRetention, false);
        // Compacted: the latest configuration per bucket is the state; a tombstone removes a bucket.
        // A record carries a lifecycle configuration of up to 1 MiB (S3's limit), escaped into JSON.
        bucketConfigs = new TopicSpec<>(prefix + "bucket-configs", Serdes.String(), new JsonSerde<>(BucketConfig.class),
                1, TopicConfig.CLEANUP_POLICY_COMPACT, Map.of(TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                String.valueOf(4 * 1024 * 1024)), false);
        bucketTasks = new TopicSpec<>(prefix + "bucket-tasks", Serdes.String(), new JsonSerde<>(BucketTask.class), shards,
                TopicConfig.CLEANUP_POLICY_DELETE, taskRetention, false);
        objectTasks = new TopicSpec<>(prefix + "object-tasks", Serdes.String(), new JsonSerde<>(ObjectTask.class), shards,
                TopicConfig.CLEANUP_POLICY_DELETE, taskRetention, true);
        // Compacted, keyed per parked task: a record stays until a replay or purge writes its tombstone, never dropped
        // by age (architecture.md, Topics and keys) unless a dead-letter retention is set, which adds deletion by time.
        objectTasksDlq = new TopicSpec<>(prefix + "object-tasks.dlq", Serdes.String(), new JsonSerde<>(DeadLetter.class),
                shards, deadLetterRetentionMs < 0 ? TopicConfig.CLEANUP_POLICY_COMPACT
                : TopicConfig.CLEANUP_POLICY_COMPACT + "," + TopicConfig.CLEANUP_POLICY_DELETE, deadLetterRetention,
                true);
        lifecycleEvents = new TopicSpec<>(prefix + "lifecycle-events", Serdes.String(),
                new JsonSerde<>(LifecycleEvent.class), shards, TopicConfig.CLEANUP_POLICY_DELETE, taskRetention, true);
        // Compacted, one key: only the newest checkpoint matters, and it commits with the events it covers.
        populatorCheckpoint = new TopicSpec<>(prefix + "populator-checkpoint", Serdes.String(),
                new JsonSerde<>(PopulatorCheckpoint.class), 1, TopicConfig.CLEANUP_POLICY_COMPACT, Map.of(), false);
    }

    public static TopicRegistry from(TidemarkConfig config) {
        return new TopicRegistry(config.topicPrefix(), config.shardBits(),
                config.getLong(TidemarkConfig.TOPIC_META_LOG_RETENTION_MS),
                config.getLong(TidemarkConfig.TOPIC_TASKS_RETENTION_MS),
                config.getLong(TidemarkConfig.TOPIC_DLQ_RETENTION_MS));
    }

    public TopicSpec<String, MetaLogRecord> metaLog() {
        return metaLog;
    }

    public TopicSpec<String, MetaLogRecord> rearm() {
        return rearm;
    }

    public TopicSpec<byte[], byte[]> replayStreamsDlq() {
        return replayStreamsDlq;
    }

    public TopicSpec<String, BucketConfig> bucketConfigs() {
        return bucketConfigs;
    }

    public TopicSpec<String, BucketTask> bucketTasks() {
        return bucketTasks;
    }

    public TopicSpec<String, ObjectTask> objectTasks() {
        return objectTasks;
    }

    public TopicSpec<String, DeadLetter> objectTasksDlq() {
        return objectTasksDlq;
    }

    public TopicSpec<String, LifecycleEvent> lifecycleEvents() {
        return lifecycleEvents;
    }

    public TopicSpec<String, PopulatorCheckpoint> populatorCheckpoint() {
        return populatorCheckpoint;
    }

    public List<TopicSpec<?, ?>> all() {
        return List.of(metaLog, rearm, bucketConfigs, bucketTasks, objectTasks, objectTasksDlq, lifecycleEvents,
                populatorCheckpoint, replayStreamsDlq);
    }
}
