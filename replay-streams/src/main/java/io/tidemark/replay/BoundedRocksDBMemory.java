package io.tidemark.replay;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * Bounds the off-heap memory of every RocksDB store in this JVM by one number ({@code replay-streams.rocksdb.memory
 * .bytes}), the bounded-memory set-up of Kafka Streams' memory-management guide. Left alone, each store gets its own
 * 50 MB block cache and up to three 16 MB memtables, and keeps its index and filter blocks outside any cache, so the
 * ~50 stores of an instance with 16 shards and a standby could ask for several GB.
 *
 * <p>All stores share one LRU block cache of that size; their memtables are charged to it through one
 * {@link WriteBufferManager} (which flushes once they reach half of it), and index and filter blocks live in it too, at
 * high priority, so that data blocks are evicted before them. Its capacity is not strict: RocksDB then fails a read or
 * an iteration that finds the cache full of pinned blocks, which would stop the stream thread; a non-strict cache
 * overshoots a little in that rare case instead (the pod's limit keeps room for it, docs/replay-streams.md).
 *
 * <p>Kafka Streams creates one setter per store and hands it the application's properties, where
 * {@link ReplayStreamsService} puts the bound ({@link #MEMORY_BYTES_CONFIG}). The shared objects belong to no store:
 * a store's {@link #close} only gives back its claim, and the last store to go closes them (a store opened after
 * that gets new ones). RocksDB holds its own references to the cache and the manager while a database is open, so
 * closing the Java handles before the database itself (Streams calls the setter's close first) frees nothing in use.
 */
public final class BoundedRocksDBMemory implements RocksDBConfigSetter {

    /** The Streams property carrying the bound, in bytes: the Tidemark setting's own name. */
    public static final String MEMORY_BYTES_CONFIG = ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES;

    /** Share of the cache the memtables may take before the write buffer manager flushes them. */
    static final double MEMTABLE_SHARE = 0.5;
    /** Share of the cache kept for index and filter blocks (cached with high priority). */
    static final double HIGH_PRIORITY_SHARE = 0.1;

    /** One pool per bound in force; a JVM normally has one (one replay-streams service). */
    private static final Map<Long, Pool> POOLS = new HashMap<>();

    private Pool pool;

    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
        long bytes = bound(configs);
        close(storeName, options); // a setter configured twice keeps one claim
        // Streams' own table config, whose block cache its metrics read back: change it, never replace it.
        BlockBasedTableConfig table = (BlockBasedTableConfig) options.tableFormatConfig();
        Pool shared = acquire(bytes);
        table.setBlockCache(shared.cache());
        table.setCacheIndexAndFilterBlocks(true);
        table.setCacheIndexAndFilterBlocksWithHighPriority(true);
        table.setPinTopLevelIndexAndFilter(true);
        options.setWriteBufferManager(shared.writeBuffers());
        options.setTableFormatConfig(table);
        pool = shared;
    }

    @Override
    public void close(String storeName, Options options) {
        Pool shared = pool;
        pool = null;
        if (shared != null) {
            release(shared);
        }
    }

    private static long bound(Map<String, Object> configs) {
        Object value = configs.get(MEMORY_BYTES_CONFIG);
        if (value == null) {
            throw new ConfigException(MEMORY_BYTES_CONFIG + " is not among the Streams properties: "
                    + BoundedRocksDBMemory.class.getSimpleName() + " needs the bound it enforces");
        }
        long bytes = value instanceof Number n ? n.longValue() : Long.parseLong(value.toString().trim());
        if (bytes <= 0) {
            throw new ConfigException(MEMORY_BYTES_CONFIG, value, "must be a positive number of bytes");
        }
        return bytes;
    }

    private static synchronized Pool acquire(long bytes) {
        Pool shared = POOLS.computeIfAbsent(bytes, Pool::create);
        shared.users++;
        return shared;
    }

    private static synchronized void release(Pool shared) {
        if (--shared.users == 0) {
            POOLS.remove(shared.bytes, shared);
            // The manager holds the cache: it goes first.
            shared.writeBuffers.close();
            shared.cache.close();
        }
    }

    /** The pool of a bound while a store uses it, else null. For tests and diagnostics. */
    static synchronized Pool pool(long bytes) {
        return POOLS.get(bytes);
    }

    /** The cache and write buffer manager every store under one bound shares, with the number of stores using them. */
    static final class Pool {
        private final long bytes;
        private final LRUCache cache;
        private final WriteBufferManager writeBuffers;
        private int users;

        private Pool(long bytes, LRUCache cache, WriteBufferManager writeBuffers) {
            this.bytes = bytes;
            this.cache = cache;
            this.writeBuffers = writeBuffers;
        }

        private static Pool create(long bytes) {
            RocksDB.loadLibrary();
            // -1: RocksDB picks the number of shards from the capacity; false: not strict (see the class comment).
            LRUCache cache = new LRUCache(bytes, -1, false, HIGH_PRIORITY_SHARE);
            return new Pool(bytes, cache, new WriteBufferManager((long) (bytes * MEMTABLE_SHARE), cache));
        }

        LRUCache cache() {
            return cache;
        }

        WriteBufferManager writeBuffers() {
            return writeBuffers;
        }

        int users() {
            synchronized (BoundedRocksDBMemory.class) {
                return users;
            }
        }
    }
}
