package io.tidemark.replay;

import io.tidemark.config.ConfigContribution;
import io.tidemark.config.TidemarkConfig;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;

/**
 * Replay-streams' settings for its timers, read once from the configuration registry.
 *
 * @param punctuateInterval  how often due timers are looked for (wall-clock time)
 * @param maxFiredPerTick    most timers one stream task fires per tick
 * @param maxFireTimePerTick longest one stream thread spends firing per tick, shared among its tasks
 */
public record ReplayStreamsSettings(Duration punctuateInterval, int maxFiredPerTick, Duration maxFireTimePerTick) {

    public static final String PUNCTUATE_INTERVAL_MS = "replay-streams.punctuate.interval.ms";
    public static final String MAX_FIRED_PER_TICK = "replay-streams.max.fired.per.tick";
    public static final String MAX_FIRE_TIME_PER_TICK_MS = "replay-streams.max.fire.time.per.tick.ms";
    public static final String STATE_DIR = "replay-streams.state.dir";
    public static final String NUM_STREAM_THREADS = "replay-streams.num.stream.threads";
    public static final String STANDBY_REPLICAS = "replay-streams.standby.replicas";
    public static final String STATUS_INTERVAL_MS = "replay-streams.status.interval.ms";
    public static final String ROCKSDB_MEMORY_BYTES = "replay-streams.rocksdb.memory.bytes";

    /**
     * 512 MiB: what the Kubernetes StatefulSet's 2 GiB limit leaves for RocksDB beside a 35 % heap and the JVM's own
     * memory (the arithmetic, and the measurement with ten million timers, are in docs/replay-streams.md).
     */
    public static final long DEFAULT_ROCKSDB_MEMORY_BYTES = 512L * 1024 * 1024;
    /** The smallest bound: below it ~50 stores' index and filter blocks and memtables no longer fit. */
    public static final long MIN_ROCKSDB_MEMORY_BYTES = 32L * 1024 * 1024;

    public static ReplayStreamsSettings from(TidemarkConfig config) {
        return new ReplayStreamsSettings(config.millis(PUNCTUATE_INTERVAL_MS), config.getInt(MAX_FIRED_PER_TICK),
                config.millis(MAX_FIRE_TIME_PER_TICK_MS));
    }

    /** Where replay-streams keeps its local state: its own setting, else {@code replay-streams} under the data dir. */
    public static Path stateDir(TidemarkConfig config) {
        String own = config.getString(STATE_DIR);
        return own == null || own.isBlank() ? Path.of(config.getString(TidemarkConfig.DATA_DIR), "replay-streams")
                : Path.of(own);
    }

    /** The {@code replay-streams.*} settings, contributed to the configuration registry. */
    public static final class Keys implements ConfigContribution {

        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(PUNCTUATE_INTERVAL_MS, Type.LONG, 1_000L, Range.between(10, 3_600_000), Importance.MEDIUM,
                            "How often replay-streams looks for due timers (wall-clock time).")
                    .define(MAX_FIRE_TIME_PER_TICK_MS, Type.LONG, 1_000L, Range.between(1, 60_000), Importance.LOW,
                            "Longest one stream thread spends firing timers per tick, shared evenly among its tasks "
                                    + "(each fires at least one). All the tasks of a thread fire in one exactly-once "
                                    + "transaction, which Kafka aborts past its timeout (10 s for Streams) and which "
                                    + "hides the fired tasks from the object processor until it commits; what is left "
                                    + "fires on catch-up ticks in the thread's next loops. A burst's first tick fires "
                                    + "for 25 ms at most, each catch-up tick for twice the one before up to this "
                                    + "bound, so the first tasks are committed within milliseconds of falling due.")
                    .define(MAX_FIRED_PER_TICK, Type.INT, 10_000, Range.between(1, 10_000_000), Importance.LOW,
                            "Most timers one stream task fires per tick, so a backlog cannot hold up its commits; the "
                                    + "rest fire on the next ticks.")
                    .define(STATE_DIR, Type.STRING, "", Importance.LOW, "Where replay-streams keeps its local state "
                                    + "(RocksDB); empty: replay-streams under data.dir. It is a cache of the "
                                    + "changelogs: lost, it is rebuilt from them; from another Kafka cluster or with a "
                                    + "global store past its topic's end (a recreated topic), it is discarded and "
                                    + "rebuilt at start.")
                    .define(NUM_STREAM_THREADS, Type.INT, 1, Range.between(1, 64), Importance.LOW,
                            "Stream threads of one replay-streams instance.")
                    .define(STANDBY_REPLICAS, Type.INT, 0, Range.between(0, 10), Importance.LOW,
                            "Warm copies of each timer store on other instances, for faster fail-over.")
                    .define(STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                            "How often replay-streams logs its status line.")
                    .define(ROCKSDB_MEMORY_BYTES, Type.LONG, DEFAULT_ROCKSDB_MEMORY_BYTES,
                            new TidemarkConfig.MinusOneOrAtLeast(MIN_ROCKSDB_MEMORY_BYTES, "no bound"), Importance.MEDIUM,
                            "Off-heap memory all of one instance's RocksDB stores share (the timer stores of every "
                                    + "shard it runs, active and standby, and the bucket-configs global store): one "
                                    + "block cache of this size holds their data, index and filter blocks and, charged "
                                    + "to it, their memtables (flushed once they reach half of it). Size the "
                                    + "container's memory limit for the heap plus this plus the JVM's own memory. -1 "
                                    + "lifts the bound: each store then takes Kafka Streams' defaults (a 50 MB cache "
                                    + "and up to three 16 MB memtables per store, indexes outside any cache). A setter "
                                    + "named in kafka.streams.rocksdb.config.setter replaces this bound.");
        }
    }
}
