package io.tidemark.replay;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * The timers of one stream task. {@code timers} is keyed by the due instant (8 bytes, big-endian epoch millis)
 * followed by the timer id, so a range scan from the epoch to now returns exactly the due timers, earliest first;
 * {@code index} maps a timer id to its key there, so an event can replace or cancel its object's timer;
 * {@code counts} holds how many timers of each kind are pending, changed in the same write as the timers so it stays
 * exact across crashes and restores (a RocksDB estimate cannot tell kinds apart and drifts with deletes). Timers
 * that wait for an event rather than a time ({@link ReplayTimer#NEVER}) are counted apart, as {@value #WAITING}.
 */
final class TimerStore {

    static final String TIMERS = "timers";
    static final String INDEX = "timer-index";
    static final String COUNTS = "timer-counts";
    /** Marks a counts store filled: one made after its timers existed (an upgrade) is counted once from them. */
    private static final String COUNTED = "#counted";
    /** The count of timers waiting for an event: current null versions' noncurrent timers. */
    static final String WAITING = "NULL_VERSION_WAITING";
    private static final long NEVER_MILLIS = ReplayTimer.NEVER.toEpochMilli();

    private static final Bytes EPOCH = Bytes.wrap(new byte[8]);

    private final KeyValueStore<Bytes, byte[]> timers;
    private final KeyValueStore<String, Bytes> index;
    private final KeyValueStore<String, Long> counts;
    /**
     * Where the next due scan starts: no timer is keyed below it. Fired timers leave tombstones in RocksDB until
     * compaction, and a scan from the epoch walks all of them: with millions fired, each tick's scan slowed to a
     * crawl. Arming below it lowers it; it lives in memory, so a restart scans from the epoch once.
     */
    private Bytes lowWater = EPOCH;

    TimerStore(KeyValueStore<Bytes, byte[]> timers, KeyValueStore<String, Bytes> index,
               KeyValueStore<String, Long> counts) {
        this.timers = timers;
        this.index = index;
        this.counts = counts;
        if (counts.get(COUNTED) == null) {
            countFromTimers();
        }
    }

    private void countFromTimers() {
        Map<String, Long> byKind = new HashMap<>();
        try (KeyValueIterator<Bytes, byte[]> it = timers.all()) {
            it.forEachRemaining(kv -> byKind.merge(category(kv.key, kv.value), 1L, Long::sum));
        }
        byKind.forEach(counts::put);
        counts.put(COUNTED, 1L);
    }

    private void add(String kind, long delta) {
        Long n = counts.get(kind);
        counts.put(kind, (n == null ? 0 : n) + delta);
    }

    /** Pending timers by kind; a kind whose timers have all gone shows 0. */
    Map<String, Long> pendingByKind() {
        Map<String, Long> byKind = new TreeMap<>();
        try (KeyValueIterator<String, Long> it = counts.all()) {
            it.forEachRemaining(kv -> {
                if (!kv.key.equals(COUNTED)) {
                    byKind.put(kv.key, kv.value);
                }
            });
        }
        return byKind;
    }

    /** The timer id a key names: the key is the due instant's 8 bytes, then the id. */
    static String timerIdOf(Bytes key) {
        byte[] raw = key.get();
        return new String(raw, 8, raw.length - 8, StandardCharsets.UTF_8);
    }

    /** A stored timer's kind: from its value, or from its id (which ends with it) when the value cannot be read. */
    private static String kind(Bytes key, byte[] raw) {
        try {
            return TimerCodec.read(raw).kind();
        } catch (RuntimeException e) {
            String id = timerIdOf(key);
            return id.substring(id.lastIndexOf('#') + 1);
        }
    }

    /** What a stored timer is counted as: its kind, or {@value #WAITING} for one that waits for an event. */
    private static String category(Bytes key, byte[] raw) {
        return ByteBuffer.wrap(key.get()).getLong() == NEVER_MILLIS ? WAITING : kind(key, raw);
    }

    private static String category(ReplayTimer timer) {
        return timer.dueAt().equals(ReplayTimer.NEVER) ? WAITING : timer.kind();
    }

    static Bytes key(Instant due, String timerId) {
        byte[] id = timerId.getBytes(StandardCharsets.UTF_8);
        // Timers due before the epoch (never in practice) sort with it rather than wrap around.
        return Bytes.wrap(ByteBuffer.allocate(8 + id.length).putLong(Math.max(0, due.toEpochMilli())).put(id).array());
    }

    /** A range bound above every timer due before {@code epochMillis} and below every other: the bare time prefix. */
    private static Bytes belowMillis(long epochMillis) {
        return Bytes.wrap(ByteBuffer.allocate(8).putLong(epochMillis).array());
    }

    /**
     * Arms a timer, replacing the timer of the same id if there is one. Each write is a changelog record, so only
     * what changed is written: a timer re-armed at the same due instant overwrites its value alone, and the index
     * is overwritten, never deleted first.
     */
    void arm(ReplayTimer timer) {
        Bytes key = key(timer.dueAt(), timer.timerId());
        Bytes oldKey = index.get(timer.timerId());
        // The same key is the same due instant, so the same count; a timer moved to another instant may move from
        // waiting to armed (or back).
        boolean counted = false;
        if (key.equals(oldKey)) {
            counted = timers.get(key) != null;
        } else if (oldKey != null) {
            byte[] replaced = timers.delete(oldKey);
            if (replaced != null) {
                add(category(oldKey, replaced), -1);
            }
        }
        timers.put(key, TimerCodec.encode(timer));
        if (key.compareTo(lowWater) < 0) {
            lowWater = key;
        }
        if (!key.equals(oldKey)) {
            index.put(timer.timerId(), key);
        }
        if (!counted) {
            add(category(timer), 1);
        }
    }

    /**
     * Removes a timer; true if there was one. Looked up first: a delete on a changelogged store logs a tombstone even
     * for a key it does not hold, and most cancels (every object deleted in a lifecycle bucket) find none.
     */
    boolean cancel(String timerId) {
        Bytes key = index.get(timerId);
        if (key == null) {
            return false;
        }
        index.delete(timerId);
        byte[] gone = timers.delete(key);
        if (gone != null) {
            add(category(key, gone), -1);
        }
        return true;
    }

    /**
     * Removes a timer the caller has just read from this store (a fired or dropped one) without looking anything up:
     * its key follows from it, and a store's {@code delete} reads and decodes the old value only to return it (a
     * quarter of the firing thread's samples in a profile).
     */
    void remove(ReplayTimer timer) {
        index.put(timer.timerId(), null);
        timers.put(key(timer.dueAt(), timer.timerId()), null);
        add(category(timer), -1);
    }

    /** The armed timer of an id; empty also when its value cannot be read (arming again replaces it). */
    Optional<ReplayTimer> get(String timerId) {
        Bytes key = index.get(timerId);
        byte[] raw = key == null ? null : timers.get(key);
        return raw == null ? Optional.empty() : decoded(raw);
    }

    /**
     * A due timer as stored: decoded, or — when its bytes cannot be read — only its key and bytes, so the firing can
     * move it aside instead of meeting it first on every tick.
     *
     * @param timer null when {@code error} says why it could not be decoded
     */
    record Due(Bytes key, byte[] raw, ReplayTimer timer, String error) {
    }

    /**
     * Up to {@code limit} timers due at {@code now} or earlier, earliest first. The caller fires, re-times, drops or
     * moves aside each of them, so the next scan may start at the first one returned.
     */
    List<Due> due(Instant now, int limit) {
        List<Due> due = new ArrayList<>();
        Bytes upTo = belowMillis(now.toEpochMilli() + 1);
        Bytes first = null;
        try (KeyValueIterator<Bytes, byte[]> it = timers.range(lowWater, upTo)) {
            while (it.hasNext() && due.size() < limit) {
                KeyValue<Bytes, byte[]> next = it.next();
                if (first == null) {
                    first = next.key;
                }
                try {
                    due.add(new Due(next.key, next.value, TimerCodec.read(next.value), null));
                } catch (RuntimeException e) {
                    due.add(new Due(next.key, next.value, null, e.toString()));
                }
            }
        }
        // Nothing below the first due key (or below upTo, when none is due) is left.
        lowWater = first != null ? first : upTo;
        return due;
    }

    /** Removes a timer whose value cannot be read (or whose firing failed), by its key: it is moved aside. */
    void removeAt(Bytes key) {
        String timerId = timerIdOf(key);
        if (key.equals(index.get(timerId))) {
            index.delete(timerId);
        }
        byte[] gone = timers.delete(key);
        if (gone != null) {
            add(category(key, gone), -1);
        }
    }

    private static Optional<ReplayTimer> decoded(byte[] raw) {
        try {
            return Optional.of(TimerCodec.read(raw));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The due instant of the earliest pending timer, if one falls due before {@code before}. */
    Optional<Instant> nextDue(Instant before) {
        Bytes upTo = belowMillis(before.toEpochMilli());
        try (KeyValueIterator<Bytes, byte[]> it = timers.range(lowWater, upTo)) {
            return it.hasNext() ? Optional.of(Instant.ofEpochMilli(ByteBuffer.wrap(it.next().key.get()).getLong()))
                    : Optional.empty();
        }
    }

}
