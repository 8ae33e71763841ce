package io.tidemark.replay;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketConfig;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicRegistry;
import java.time.Instant;
import java.util.function.LongSupplier;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The replay topology, built by a plain function that tests call directly. Every source, processor, store and
 * sink is named, so a later change to the topology cannot rename (and so orphan) the timers' changelog:
 *
 * <pre>
 *   meta-log-source ─┐           ┌▶ object-tasks-sink      stores: timers, timer-index, timer-counts;
 *                    ├─▶ timers ─┼▶ bucket-tasks-sink      global: bucket-configs
 *   rearm-source ────┘           └▶ replay-streams-dlq-sink
 *   bucket-configs-source ─▶ bucket-configs-updater (global store bucket-configs)
 * </pre>
 *
 * {@code meta-log} and {@code rearm} are co-partitioned by ShardID, so all records of one object reach the task
 * that holds its timers; tasks go out on the partition of their shard.
 */
public final class ReplayTopology {

    static final String BUCKET_CONFIGS_STORE = "bucket-configs";
    static final String OBJECT_TASKS_SINK = "object-tasks-sink";
    static final String BUCKET_TASKS_SINK = "bucket-tasks-sink";
    static final String DEAD_TIMERS_SINK = "replay-streams-dlq-sink";

    /**
     * What the topology is built from: its topics, how rules are read, the timer settings, and the meters it reports
     * to.
     *
     * @param nanoTime the clock that bounds a tick's firing time ({@code System::nanoTime}; tests pass their own)
     * @param firingShare splits {@code maxFireTimePerTick} among the processors of each stream thread
     */
    /**
     * @param filerOffsetMs the filer's clock less this host's, in milliseconds: what is added to the wall-clock time of
     *                      a punctuation to judge due instants, which come from the filer's stamps (architecture.md,
     *                      invariant 7); 0 where the two are the same clock (tests)
     */
    public record Params(TopicRegistry topics, RuleReader rules, ReplayStreamsSettings settings, LongSupplier nanoTime,
                         ReplayStreamsMetrics metrics, ThreadFiringShare firingShare, LongSupplier filerOffsetMs) {

        public static Params from(TidemarkConfig config, ReplayStreamsMetrics metrics) {
            return new Params(TopicRegistry.from(config), config.ruleReader(), ReplayStreamsSettings.from(config),
                    System::nanoTime, metrics, new ThreadFiringShare(), () -> 0L);
        }

        Params withNanoTime(LongSupplier clock) {
            return new Params(topics, rules, settings, clock, metrics, firingShare, filerOffsetMs);
        }

        /** Due instants judged on the filer's clock, this far from this host's. */
        public Params withFilerOffset(LongSupplier offsetMs) {
            return new Params(topics, rules, settings, nanoTime, metrics, firingShare, offsetMs);
        }

        /** The time due instants are judged at, for a wall-clock time of this host. */
        Instant dueTime(long wallClockMs) {
            return Instant.ofEpochMilli(wallClockMs + filerOffsetMs.getAsLong());
        }
    }

    private ReplayTopology() {
    }

    public static Topology build(Params params) {
        TopicRegistry topics = params.topics();
        Topology topology = new Topology();
        topology.addSource("meta-log-source", Serdes.String().deserializer(),
                topics.metaLog().valueSerde().deserializer(), topics.metaLog().name());
        topology.addSource("rearm-source", Serdes.String().deserializer(),
                topics.rearm().valueSerde().deserializer(), topics.rearm().name());
        topology.addProcessor("timers", () -> new ReplayProcessor(params), "meta-log-source", "rearm-source");
        // Timers are kept as TimerCodec's bytes and decoded by TimerStore: a value that cannot be decoded is then one
        // timer to move aside, not an exception out of the store's iterator on every tick.
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TimerStore.TIMERS),
                Serdes.Bytes(), Serdes.ByteArray()), "timers");
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TimerStore.INDEX),
                Serdes.String(), Serdes.Bytes()), "timers");
        // Cached: every arm and firing rewrites the same few keys, so only their last value per commit is logged.
        topology.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(TimerStore.COUNTS),
                Serdes.String(), Serdes.Long()).withCachingEnabled(), "timers");
        // The global store keeps each configuration as its record's bytes: a processor compares bytes to reuse the
        // configuration it decoded last instead of decoding the lifecycle XML's JSON for every event.
        topology.addGlobalStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore(BUCKET_CONFIGS_STORE),
                        Serdes.String(), Serdes.ByteArray()).withLoggingDisabled(),
                "bucket-configs-source", Serdes.String().deserializer(), topics.bucketConfigs().valueSerde().deserializer(),
                topics.bucketConfigs().name(), "bucket-configs-updater",
                () -> new BucketConfigsUpdater(topics.bucketConfigs().valueSerde().serializer()));
        int partitions = topics.objectTasks().partitions();
        topology.addSink(OBJECT_TASKS_SINK, topics.objectTasks().name(), Serdes.String().serializer(),
                topics.objectTasks().valueSerde().serializer(),
                (topic, key, value, numPartitions) -> java.util.Optional.of(java.util.Set.of(
                        ShardPartitioner.shardOf(key, numPartitions))), "timers");
        // Recovery walks: of one key, when an older version becomes latest again (TimerPlanner#pointerFlipped), and in
        // place of a timer moved aside (TimerPlanner#walkOfTimer); keyed by bucket like every bucket task, so the
        // default partitioner keeps a bucket's walks on one partition.
        topology.addSink(BUCKET_TASKS_SINK, topics.bucketTasks().name(), Serdes.String().serializer(),
                topics.bucketTasks().valueSerde().serializer(), "timers");
        // Timers that cannot be read or fired, moved aside (their id and bytes) so the rest of their task fires.
        topology.addSink(DEAD_TIMERS_SINK, topics.replayStreamsDlq().name(), Serdes.String().serializer(),
                Serdes.ByteArray().serializer(), "timers");
        return topology;
    }

    /** Keeps the global store equal to the compacted topic: the latest configuration per bucket, none after a tombstone. */
    static final class BucketConfigsUpdater implements Processor<String, BucketConfig, Void, Void> {

        private final Serializer<BucketConfig> serializer;
        private KeyValueStore<String, byte[]> store;

        BucketConfigsUpdater(Serializer<BucketConfig> serializer) {
            this.serializer = serializer;
        }

        @Override
        public void init(ProcessorContext<Void, Void> context) {
            store = context.getStateStore(BUCKET_CONFIGS_STORE);
        }

        @Override
        public void process(Record<String, BucketConfig> record) {
            if (record.key() == null) {
                return;
            }
            if (record.value() == null) {
                store.delete(record.key());
            } else {
                store.put(record.key(), serializer.serialize(BUCKET_CONFIGS_STORE, record.value()));
            }
        }
    }
}
