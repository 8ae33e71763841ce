package io.tidemark.emulator.filer;

import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The ordered list of every mutation's event, each stamped with a strictly increasing {@code ts_ns} — or, when
 * asked ({@link #stampInRunsOf}), in runs of events sharing one {@code ts_ns}, as SeaweedFS's aggregated logs have
 * them. Readers find their start by timestamp and wait for appends; the optional file makes the log survive
 * restarts. As a filer's, the newest events are also held in memory ({@link #memoryStart}); older ones are read
 * from its log files, where {@code since_ns} is exclusive (see FilerService), and can be purged as an operator
 * purges a filer's log files ({@link #purgeBefore}). Indexes are positions in the whole log: purged events keep
 * theirs, so a reader's position survives a purge.
 *
 * <p>A filer with peers also keeps what their local streams delivered to it ({@link #appendAsReceived}): that log is
 * in arrival order, its stamps the originals, so not monotonic; readers still look it up by stamp, as upstream's log
 * buffer is looked up, and a late event lying after the point found is skipped.
 */
final class MetaLog {

    private final List<SubscribeMetadataResponse> events = new ArrayList<>();
    /** Events purged from the front: the index of {@code events.get(0)}. */
    private int purged;
    private final Clock clock;
    /** Makes an event durable before anyone can read it; {@code null} in memory only. */
    private final Consumer<SubscribeMetadataResponse> persist;
    private long lastTsNs;
    private int runLength = 1;
    private int leftInRun;
    private int memoryWindow = DEFAULT_MEMORY_WINDOW;
    /** Stamps before this were never in this log's memory (it began then): they are read from disk. */
    private long memoryFromTsNs = Long.MIN_VALUE;

    /** Events held in memory; upstream keeps about five one-minute buffers (up to 8 MiB each). */
    static final int DEFAULT_MEMORY_WINDOW = 1_000;

    MetaLog(Clock clock, Consumer<SubscribeMetadataResponse> persist, List<SubscribeMetadataResponse> recovered) {
        this.clock = clock;
        this.persist = persist;
        events.addAll(recovered);
        if (!recovered.isEmpty()) {
            lastTsNs = recovered.get(recovered.size() - 1).getTsNs();
        }
    }

    synchronized SubscribeMetadataResponse append(String directory, EventNotification notification) {
        long ts;
        if (leftInRun > 0 && lastTsNs > 0) {
            ts = lastTsNs;
            leftInRun--;
        } else {
            Instant now = clock.instant();
            ts = Math.max(EpochNanos.of(now), lastTsNs + 1);
            leftInRun = runLength - 1;
        }
        SubscribeMetadataResponse event = SubscribeMetadataResponse.newBuilder()
                .setDirectory(directory)
                .setEventNotification(notification)
                .setTsNs(ts)
                .build();
        if (persist != null) {
            persist.accept(event);
        }
        events.add(event);
        lastTsNs = ts;
        notifyAll();
        return event;
    }

    /** Adds an event another filer stamped, keeping its stamp, as an aggregating filer receives a peer's. */
    synchronized void appendAsReceived(SubscribeMetadataResponse event) {
        events.add(event);
        lastTsNs = Math.max(lastTsNs, event.getTsNs());
        notifyAll();
    }

    /** From now on, stamps every {@code length} consecutive events with one {@code ts_ns} (1: all distinct). */
    synchronized void stampInRunsOf(int length) {
        if (length < 1) {
            throw new IllegalArgumentException("a run holds at least one event: " + length);
        }
        runLength = length;
        leftInRun = 0;
    }

    synchronized int size() {
        return purged + events.size();
    }

    /** The index of the oldest event still held. */
    synchronized int firstIndex() {
        return purged;
    }

    /**
     * Drops every event stamped before {@code tsNs}, as {@code fs.log.purge} deletes a filer's old log files: a
     * subscription asking for them gets what is left, without an error. Returns how many went.
     */
    synchronized int purgeBefore(long tsNs) {
        int n = 0;
        while (n < events.size() && events.get(n).getTsNs() < tsNs) {
            n++;
        }
        if (n > 0) {
            events.subList(0, n).clear();
            purged += n;
        }
        return n;
    }

    /** The start (epoch nanos, floored to the minute) of every minute that has events, oldest first. */
    synchronized java.util.NavigableSet<Long> minutes() {
        java.util.TreeSet<Long> minutes = new java.util.TreeSet<>();
        long minute = 60_000_000_000L;
        for (SubscribeMetadataResponse e : events) {
            minutes.add(Math.floorDiv(e.getTsNs(), minute) * minute);
        }
        return minutes;
    }

    /** How many of the newest events are held in memory; older ones are served from "disk". */
    synchronized void setMemoryWindow(int events) {
        if (events < 1) {
            throw new IllegalArgumentException("the memory window holds at least one event: " + events);
        }
        memoryWindow = events;
    }

    /** Marks this log as begun at {@code tsNs}: a reader from before then is served from disk first. */
    synchronized void holdInMemoryFrom(long tsNs) {
        memoryFromTsNs = tsNs;
    }

    /** Whether a reader from {@code sinceNs} finds its start in memory, rather than on disk. */
    synchronized boolean inMemory(long sinceNs) {
        return sinceNs >= memoryFromTsNs && firstAtOrAfter(sinceNs) >= memoryStart();
    }

    /** The index of the oldest event still in memory. */
    synchronized int memoryStart() {
        return Math.max(purged, size() - memoryWindow);
    }

    /** The index of the first event stamped after {@code tsNs}: since_ns as the filer reads its log files. */
    synchronized int firstAfter(long tsNs) {
        return tsNs == Long.MAX_VALUE ? size() : firstAtOrAfter(tsNs + 1);
    }

    /** The event at {@code index}, which must not have been purged (readers move up to {@link #firstIndex}). */
    synchronized SubscribeMetadataResponse get(int index) {
        return events.get(index - purged);
    }

    synchronized long lastTsNs() {
        return lastTsNs;
    }

    /** The index of the first event stamped at or after {@code tsNs}: since_ns as the filer reads its memory. */
    synchronized int firstAtOrAfter(long tsNs) {
        int low = 0;
        int high = events.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (events.get(mid).getTsNs() < tsNs) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return purged + low;
    }

    /**
     * Waits until there is an event at {@code index}, the timeout passes, or {@code stop} holds after a wake-up
     * ({@link #wakeReaders}). Returns whether there is.
     */
    synchronized boolean awaitEvent(int index, long timeoutMillis, BooleanSupplier stop) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (size() <= index && !stop.getAsBoolean()) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                return false;
            }
            wait(left);
        }
        return size() > index;
    }

    /** Wakes every waiting reader, so they notice cancellation. */
    synchronized void wakeReaders() {
        notifyAll();
    }

}
