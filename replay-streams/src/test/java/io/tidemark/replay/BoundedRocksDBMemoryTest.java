package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.state.internals.BlockBasedTableConfigWithAccessibleCache;
import org.junit.jupiter.api.Test;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.Cache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/** Every RocksDB store of one JVM draws on one bounded block cache, which also holds the memtables. */
class BoundedRocksDBMemoryTest {

    static {
        RocksDB.loadLibrary();
    }

    private static final long MIB = 1024 * 1024;

    /** The options Kafka Streams hands a setter: its table config is the one whose block cache it can read back. */
    private static Options streamsOptions() {
        Options options = new Options();
        options.setTableFormatConfig(new BlockBasedTableConfigWithAccessibleCache());
        return options;
    }

    private static Map<String, Object> appConfigs(long bytes) {
        Map<String, Object> configs = new HashMap<>();
        configs.put(BoundedRocksDBMemory.MEMORY_BYTES_CONFIG, bytes);
        return configs;
    }

    private static Cache blockCache(Options options) {
        return ((BlockBasedTableConfigWithAccessibleCache) options.tableFormatConfig()).blockCache();
    }

    @Test
    void shouldPutEveryStoreOnOneSharedCacheThatAlsoHoldsTheMemtablesAndTheIndexes() {
        BoundedRocksDBMemory timers = new BoundedRocksDBMemory();
        BoundedRocksDBMemory index = new BoundedRocksDBMemory();
        try (Options first = streamsOptions(); Options second = streamsOptions()) {
            timers.setConfig("timers", first, appConfigs(96 * MIB));
            index.setConfig("timer-index", second, appConfigs(96 * MIB));

            assertThat(blockCache(first)).isNotNull().isSameAs(blockCache(second))
                    .isSameAs(BoundedRocksDBMemory.pool(96 * MIB).cache());
            assertThat(first.writeBufferManager()).isNotNull().isSameAs(second.writeBufferManager())
                    .isSameAs(BoundedRocksDBMemory.pool(96 * MIB).writeBuffers());
            BlockBasedTableConfig table = (BlockBasedTableConfig) first.tableFormatConfig();
            assertThat(table.cacheIndexAndFilterBlocks()).isTrue();
            assertThat(table.cacheIndexAndFilterBlocksWithHighPriority()).isTrue();
            assertThat(table.pinTopLevelIndexAndFilter()).isTrue();
            assertThat(BoundedRocksDBMemory.pool(96 * MIB).users()).isEqualTo(2);

            timers.close("timers", first);
            index.close("timer-index", second);
        }
    }

    @Test
    void shouldKeepTheSharedCacheOpenUntilTheLastStoreUsingItCloses() {
        BoundedRocksDBMemory timers = new BoundedRocksDBMemory();
        BoundedRocksDBMemory index = new BoundedRocksDBMemory();
        try (Options first = streamsOptions(); Options second = streamsOptions()) {
            timers.setConfig("timers", first, appConfigs(80 * MIB));
            index.setConfig("timer-index", second, appConfigs(80 * MIB));
            Cache shared = blockCache(first);

            timers.close("timers", first);
            assertThat(shared.isOwningHandle()).as("one store closed, the other still reads through it").isTrue();
            assertThat(second.writeBufferManager().isOwningHandle()).isTrue();
            timers.close("timers", first);
            assertThat(shared.isOwningHandle()).as("a second close of the same store releases nothing").isTrue();

            index.close("timer-index", second);
            assertThat(shared.isOwningHandle()).as("released with the last store").isFalse();
            assertThat(BoundedRocksDBMemory.pool(80 * MIB)).isNull();
        }
        BoundedRocksDBMemory reopened = new BoundedRocksDBMemory();
        try (Options options = streamsOptions()) {
            reopened.setConfig("timers", options, appConfigs(80 * MIB));
            assertThat(blockCache(options).isOwningHandle()).as("a store opened later gets a new pool").isTrue();
            reopened.close("timers", options);
        }
    }

    @Test
    void shouldGiveAnotherBoundItsOwnPool() {
        BoundedRocksDBMemory small = new BoundedRocksDBMemory();
        BoundedRocksDBMemory large = new BoundedRocksDBMemory();
        try (Options first = streamsOptions(); Options second = streamsOptions()) {
            small.setConfig("timers", first, appConfigs(64 * MIB));
            large.setConfig("timers", second, appConfigs(128 * MIB));

            assertThat(blockCache(first)).isNotSameAs(blockCache(second));
            small.close("timers", first);
            large.close("timers", second);
        }
    }

    @Test
    void shouldRefuseAStoreWithoutTheBound() {
        try (Options options = streamsOptions()) {
            assertThatThrownBy(() -> new BoundedRocksDBMemory().setConfig("timers", options, Map.of()))
                    .isInstanceOf(ConfigException.class).hasMessageContaining(BoundedRocksDBMemory.MEMORY_BYTES_CONFIG);
        }
    }

    @Test
    void shouldBoundEveryStoreOfTheTopologyWithTheServicesStreamsSettings() {
        TidemarkConfig config = new TidemarkConfig(Map.of("shard.bits", "1",
                ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES, String.valueOf(72 * MIB),
                "replay-streams.state.dir", "target/tmp/bounded-rocksdb-" + System.nanoTime()));
        Properties props = ReplayStreamsService.streamsProperties(config);

        try (TopologyTestDriver driver = new TopologyTestDriver(ReplayTopology.build(ReplayTopology.Params.from(
                config, new ReplayStreamsMetrics(new SimpleMeterRegistry()))), props)) {
            // timers, timer-index and timer-counts of the one task TopologyTestDriver runs, and the global store.
            assertThat(BoundedRocksDBMemory.pool(72 * MIB)).isNotNull();
            assertThat(BoundedRocksDBMemory.pool(72 * MIB).users()).isEqualTo(4);
            assertThat(driver.getKeyValueStore(TimerStore.TIMERS)).isNotNull();
        }
        assertThat(BoundedRocksDBMemory.pool(72 * MIB)).as("every store closed with the driver").isNull();
    }
}
