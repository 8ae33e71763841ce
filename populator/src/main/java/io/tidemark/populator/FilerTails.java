package io.tidemark.populator;

import io.tidemark.messages.PopulatorCheckpoint.FilerCursor;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.client.SubscriptionOptions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code SubscribeLocalMetadata} stream per filer, each resumed from its own cursor, feeding a {@link FilerMerge}.
 * A cursor moves only as the merge lets that filer's events go (published, or dropped as copies), so what is
 * committed with a batch is exactly where each filer's stream is to resume. A filer that cannot be reached keeps its
 * cursor; its subscription keeps trying to reconnect on its own.
 */
final class FilerTails implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FilerTails.class);

    /**
     * A span of a filer's log to read again once the filer has flushed it; see {@link #noteConnections}.
     *
     * All four are on the filer's clock (architecture.md, invariant 7: they are compared with its stamps).
     *
     * @param connectedAtNs when the last connection the span stands for was made
     * @param untilTsNs  where the span ends (0: not known yet, the stream has not caught up)
     * @param dueNs      when the filer has surely flushed it
     */
    private record Owed(long sinceTsNs, long connectedAtNs, long untilTsNs, long dueNs) {
        boolean caughtUp() {
            return untilTsNs != 0;
        }
    }

    private final class Tail {
        final String address;
        final String rereadName;
        final FilerClient client;
        final FilerClock filerClock;
        final MetadataSubscription subscription;
        /** Connections not yet placed on the filer's clock (its first reading under way). */
        final ArrayDeque<MetadataSubscription.Connection> connections = new ArrayDeque<>();
        final ArrayDeque<Owed> owed = new ArrayDeque<>();
        /** When the filer's clock was last asked for a reading (monotonic; 0: never). */
        long clockAskedNanos;
        MetadataSubscription reread;
        Owed reading;
        long deliveredSeen;
        long deliveredChangedMillis;
        /** The newest stamp the second read under way found that was not published before (0: none yet). */
        long recoveredMaxTsNs;
        /** The second read under way failed: it is ended once what it gave the merge has gone out. */
        boolean rereadFailed;
        FilerCursor cursor;
        int reconnectsSeen;
        long outOfOrderSeen;

        Tail(String address, FilerCursor from) {
            this.address = address;
            this.rereadName = address + REREAD_SUFFIX;
            this.client = connect.apply(address);
            this.filerClock = FilerClock.of(client, clock, FilerClock.DEFAULT_MAX_AGE);
            // A first reading asked for now: the stream's first connection is placed by it.
            askForReading(this);
            this.cursor = from;
            MetadataSubscription started;
            SubscriptionOptions options = SubscriptionOptions.from("tidemark-populator", pathPrefix, 0)
                    .local()
                    .resumingAfter(from.tsNs(), from.eventsAtTs())
                    .withIdleTimeout(settings.streamIdleTimeout())
                    .withBackoff(Duration.ofMillis(100), settings.maxBackoff())
                    .withBufferSize(Math.max(1_024, settings.batchMaxEvents()));
            try {
                started = client.subscribe(options);
            } catch (RuntimeException e) {
                client.close();
                throw e;
            }
            this.subscription = started;
        }

        void close() {
            if (reread != null) {
                reread.close();
            }
            subscription.close();
            client.close();
        }
    }

    /** Batches of a stream that wait in the merge; at most the larger while their stamps are close together. */
    private static final int PENDING_FACTOR = 4;
    private static final int MAX_PENDING_FACTOR = 16;

    /** How often a filer's clock is asked for a new reading while none is at hand or the last is old. */
    private static final long CLOCK_ASK_INTERVAL_NANOS = 1_000_000_000L;

    /** Names a re-read's stream in the merge (never a filer's address: those have no spaces). */
    static final String REREAD_SUFFIX = " (re-read)";

    private final PopulatorSettings settings;
    private final String pathPrefix;
    private final Function<String, FilerClient> connect;
    private final FilerMerge merge;
    private final Clock clock;
    private final Map<String, Tail> tails = new LinkedHashMap<>();
    private int rereadsStarted;
    private int rereadsSeen;
    private int rereadsFailed;
    private int rereadsFailedSeen;

    FilerTails(PopulatorSettings settings, String pathPrefix, Function<String, FilerClient> connect, FilerMerge merge,
               Clock clock) {
        this.settings = settings;
        this.pathPrefix = pathPrefix;
        this.connect = connect;
        this.merge = merge;
        this.clock = clock;
    }

    /** Starts tailing {@code address} after {@code from}. */
    void open(String address, FilerCursor from) {
        if (tails.containsKey(address)) {
            return;
        }
        log.info("filer {}: tailing its own meta-log after ts_ns {} ({} event(s) there already taken)", address,
                from.tsNs(), from.eventsAtTs());
        tails.put(address, new Tail(address, from));
        merge.addFiler(address);
    }

    /** Stops tailing {@code address}; its cursor is forgotten. */
    void retire(String address) {
        Tail tail = tails.remove(address);
        if (tail != null) {
            tail.close();
            merge.removeFiler(address);
            merge.removeFiler(tail.rereadName);
        }
    }

    Set<String> addresses() {
        return new TreeSet<>(tails.keySet());
    }

    /**
     * Moves what the streams have buffered into the merge, waiting at most {@code wait} for a first event. Returns how
     * many events moved.
     */
    int pump(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        int moved = 0;
        while (true) {
            for (Tail tail : tails.values()) {
                noteConnections(tail);
                // A stream whose events wait in the merge (another filer holds the watermark) is not read further:
                // its subscription's buffer fills and slows it, instead of the heap.
                moved += move(tail.subscription, tail.address);
                moved += reread(tail);
            }
            if (moved > 0 || System.nanoTime() - deadline >= 0 || tails.isEmpty()) {
                return moved;
            }
            Thread.sleep(2);
        }
    }

    /**
     * Offers what {@code subscription} has buffered to the merge as {@code stream}, as far as there is room. A stream
     * whose pending events span less than twice the skew margin is read further (up to a hard cap): the merge lets an
     * event go only once every filer is the margin past it, so a stream stopped short of that would hold everything
     * until the filers fell quiet — a catch-up over densely written stamps crawled at the pace of real time.
     */
    private int move(MetadataSubscription subscription, String stream) throws InterruptedException {
        int room = readLimit(merge.pendingSpanNs(stream), settings.filerMaxClockSkew(), settings.batchMaxEvents())
                - merge.pendingOf(stream);
        int moved = 0;
        for (int i = 0; i < Math.min(room, settings.batchMaxEvents()); i++) {
            FilerEvent event = subscription.pollEvent(Duration.ZERO);
            if (event == null) {
                break;
            }
            merge.offer(stream, event);
            moved++;
        }
        return moved;
    }

    /**
     * Owes a second read for each (re)connection of a filer's stream while several filers are tailed. Upstream serves
     * a local subscription's catch-up from the log files first — on a shared store every filer's, merged by stamp —
     * and then from memory at the last stamp the files gave: this filer's own events not flushed yet, stamped before
     * a peer's newer flushed ones, are never sent. They lie after this filer's last flush before the connection (at
     * most one flush interval, and the clock skew, before it) and before the stream's switch from the files to memory,
     * which is before it is first seen caught up. That span is read again once the filer has flushed it: copies of
     * what was published are left out, what the stream skipped is published, late. With one filer the files are its
     * own, and nothing is skipped. Connections that come while the last one's stream has not caught up yet share its
     * read.
     */
    private void noteConnections(Tail tail) {
        long skew = settings.filerMaxClockSkew().toNanos();
        long interval = settings.filerFlushInterval().toNanos();
        for (MetadataSubscription.Connection c; (c = tail.subscription.pollConnection()) != null; ) {
            if (tails.size() >= 2) {
                tail.connections.addLast(c);
            }
        }
        if (!tail.connections.isEmpty() || !tail.owed.isEmpty() && !tail.owed.peekLast().caughtUp()) {
            // The filer's time is what the span is placed by, never this host's (invariant 7); until a first
            // reading of it is at hand (asked for here, never waited for), the connections wait.
            long filerNow = filerNow(tail);
            if (filerNow == 0) {
                return;
            }
            long nanoNow = System.nanoTime();
            for (MetadataSubscription.Connection c; (c = tail.connections.pollFirst()) != null; ) {
                long connectedAt = filerNow - Math.max(0, nanoNow - c.atNanoTime());
                long since = Math.max(c.sinceTsNs(), connectedAt - interval - skew);
                Owed last = tail.owed.peekLast();
                if (last != null && !last.caughtUp()) {
                    tail.owed.pollLast();
                    tail.owed.addLast(new Owed(Math.min(last.sinceTsNs(), since), connectedAt, 0, 0));
                } else {
                    tail.owed.addLast(new Owed(since, connectedAt, 0, 0));
                }
            }
        }
        if (tail.owed.isEmpty() || tail.owed.peekLast().caughtUp() || !caughtUp(tail)) {
            return;
        }
        // Caught up, as far as can be told from here: the span ends no sooner than one flush interval after the
        // connection (the files a catch-up reads were flushed by then, unless it ran long), and a second read that
        // finds skipped events near its end is followed by another (see reread). Due once the filer has flushed
        // that far: one flush interval, twice the skew and a second's margin later, or as soon as it says so.
        long filerNow = filerNow(tail);
        if (filerNow == 0) {
            return;
        }
        Owed last = tail.owed.pollLast();
        long until = Math.max(filerNow, last.connectedAtNs() + interval) + skew;
        tail.owed.addLast(new Owed(last.sinceTsNs(), last.connectedAtNs(), until, dueAfter(until, filerNow)));
    }

    /** When a span up to {@code untilTsNs} is surely flushed, on the filer's clock. */
    private long dueAfter(long untilTsNs, long filerNow) {
        return Math.max(filerNow, untilTsNs) + settings.filerFlushInterval().toNanos()
                + 2 * settings.filerMaxClockSkew().toNanos() + 1_000_000_000L;
    }

    /**
     * The earliest the filer's clock can show now: the last reading carried forward, a new one asked for at most once a
     * second and never waited for (0: none taken yet). A filer that cannot tell its time (no {@code Ping}) is taken
     * at this host's, as {@link FilerClock} logs.
     */
    private long filerNow(Tail tail) {
        askForReading(tail);
        FilerClock filerClock = tail.filerClock;
        if (filerClock.cannotTellTime()) {
            return EpochNanos.of(clock.instant());
        }
        return filerClock.lastReading().isEmpty() ? 0 : EpochNanos.of(filerClock.asClock().instant());
    }

    /**
     * Asks the filer's clock for a new reading when its last is old or missing, at most once a second and never
     * waiting: a failed one leaves the last reading, still a bound, in place.
     */
    private static void askForReading(Tail tail) {
        long nanos = System.nanoTime();
        if (tail.clockAskedNanos == 0 || nanos - tail.clockAskedNanos >= CLOCK_ASK_INTERVAL_NANOS) {
            tail.clockAskedNanos = nanos;
            tail.filerClock.now();
        }
    }

    /**
     * Whether a filer's stream is caught up: nothing of it waits here, and what it sent last is recent (or it has sent
     * nothing new for a second). A stream still in its catch-up from the files has a backlog or sends old events.
     */
    private boolean caughtUp(Tail tail) {
        long now = clock.millis();
        long delivered = tail.subscription.lastDeliveredTsNs();
        if (delivered != tail.deliveredSeen) {
            tail.deliveredSeen = delivered;
            tail.deliveredChangedMillis = now;
        }
        // Recent by the filer's clock, which stamped it (invariant 7); without a reading, only the quiet second tells.
        long filerNow = filerNow(tail);
        boolean recent = filerNow != 0 && delivered >= filerNow - 2_000_000_000L;
        return tail.subscription.bufferedEvents() == 0 && merge.pendingOf(tail.address) == 0
                && (recent || now - tail.deliveredChangedMillis >= 1_000);
    }

    /** Starts the re-read owed first once it is due, moves its events, and ends it once it has all gone. */
    private int reread(Tail tail) throws InterruptedException {
        if (tail.reread == null) {
            Owed next = tail.owed.peekFirst();
            if (next == null || !next.caughtUp()) {
                return 0;
            }
            long flushed = tail.subscription.flushedThroughTsNs();
            long filerNow = filerNow(tail);
            boolean due = flushed > 0 ? flushed >= next.untilTsNs() : filerNow != 0 && filerNow >= next.dueNs();
            if (!due) {
                return 0;
            }
            tail.owed.pollFirst();
            log.info("filer {}: reading ts_ns {} to {} of its log again, now flushed: a catch-up may have skipped its "
                    + "own events stamped before its peers' flushed ones", tail.address, next.sinceTsNs(),
                    next.untilTsNs());
            SubscriptionOptions options = SubscriptionOptions.from("tidemark-populator-reread", pathPrefix, 0)
                    .local()
                    .resumingAfter(next.sinceTsNs(), 0)
                    .until(next.untilTsNs())
                    .withIdleTimeout(settings.streamIdleTimeout())
                    .withBackoff(Duration.ofMillis(100), settings.maxBackoff())
                    .withBufferSize(Math.max(1_024, settings.batchMaxEvents()));
            tail.reread = tail.client.subscribe(options);
            tail.reading = next;
            tail.recoveredMaxTsNs = 0;
            tail.rereadFailed = false;
            merge.addReread(tail.rereadName);
            rereadsStarted++;
        }
        int moved = 0;
        if (!tail.rereadFailed) {
            try {
                moved = move(tail.reread, tail.rereadName);
            } catch (SeaweedCallException e) {
                // A second read is a repair: its failure is reported once, never the end of the tail; what it
                // already gave the merge still goes out.
                log.warn("filer {}: the second read of ts_ns {} to {} failed ({}); what the catch-up skipped there, "
                        + "if anything, stays unpublished", tail.address, tail.reading.sinceTsNs(),
                        tail.reading.untilTsNs(), e.getMessage());
                rereadsFailed++;
                tail.rereadFailed = true;
            }
        }
        boolean failed = tail.rereadFailed;
        if ((failed || tail.reread.finished()) && merge.pendingOf(tail.rereadName) == 0) {
            Owed done = tail.reading;
            if (!failed) {
                log.info("filer {}: read ts_ns {} to {} again{}", tail.address, done.sinceTsNs(), done.untilTsNs(),
                        tail.recoveredMaxTsNs > 0 ? "; found what its stream had skipped" : "");
            }
            long interval = settings.filerFlushInterval().toNanos();
            if (!failed && tail.recoveredMaxTsNs > done.untilTsNs() - interval) {
                // Skipped events right up to the span's end: the catch-up's switch to memory may lie beyond it.
                long skew = settings.filerMaxClockSkew().toNanos();
                long until = done.untilTsNs() + interval + skew;
                tail.owed.addFirst(new Owed(done.untilTsNs() - skew, done.connectedAtNs(), until,
                        dueAfter(until, filerNow(tail))));
            }
            endReread(tail);
        }
        return moved;
    }

    private void endReread(Tail tail) {
        if (tail.reread != null) {
            tail.reread.close();
            tail.reread = null;
            tail.reading = null;
        }
        merge.removeFiler(tail.rereadName);
    }

    /** Whether {@code stream} names a re-read's stream rather than a filer's own. */
    static boolean isReread(String stream) {
        return stream.endsWith(REREAD_SUFFIX);
    }

    /** Re-reads that failed since the last call. */
    int newFailedRereads() {
        int n = rereadsFailed - rereadsFailedSeen;
        rereadsFailedSeen = rereadsFailed;
        return n;
    }

    /** Re-reads started since the last call. */
    int newRereads() {
        int n = rereadsStarted - rereadsSeen;
        rereadsSeen = rereadsStarted;
        return n;
    }

    /** How many of a stream's events may wait in the merge, given how far apart their stamps are (see move). */
    static int readLimit(long pendingSpanNs, Duration maxClockSkew, int batchMaxEvents) {
        return pendingSpanNs < 2 * maxClockSkew.toNanos() ? MAX_PENDING_FACTOR * batchMaxEvents
                : PENDING_FACTOR * batchMaxEvents;
    }

    /** Moves the cursor of the filer an event left the merge from. */
    void taken(FilerMerge.Taken taken) {
        if (isReread(taken.filer())) {
            Tail own = tails.get(taken.filer().substring(0, taken.filer().length() - REREAD_SUFFIX.length()));
            if (own != null && !taken.duplicate()) {
                own.recoveredMaxTsNs = Math.max(own.recoveredMaxTsNs, taken.tsNs());
            }
            return;
        }
        Tail tail = tails.get(taken.filer());
        if (tail == null) {
            return;
        }
        long ts = taken.tsNs();
        FilerCursor c = tail.cursor;
        tail.cursor = new FilerCursor(ts, ts == c.tsNs() ? c.eventsAtTs() + 1 : 1, c.lastSeenMs());
    }

    /** Raises cursors to at least {@code floor} (a gap: the logs before it are gone). */
    void raiseTo(Map<String, FilerCursor> floor) {
        floor.forEach((address, f) -> {
            Tail tail = tails.get(address);
            if (tail != null && f.tsNs() > tail.cursor.tsNs()) {
                tail.cursor = new FilerCursor(f.tsNs(), f.eventsAtTs(), tail.cursor.lastSeenMs());
            }
        });
    }

    /** Every filer's cursor, with when it was last heard from. */
    Map<String, FilerCursor> cursors() {
        Map<String, FilerCursor> out = new TreeMap<>();
        long now = clock.millis();
        for (Tail tail : tails.values()) {
            long seen = tail.cursor.lastSeenMs();
            if (tail.subscription.heardFrom()) {
                seen = Math.max(seen, now - tail.subscription.silentFor().toMillis());
            }
            out.put(tail.address, new FilerCursor(tail.cursor.tsNs(), tail.cursor.eventsAtTs(), seen));
        }
        return out;
    }

    /** Filers not heard from for longer than {@code after} since {@code cursors()} last said they were. */
    Set<String> silentFor(Duration after) {
        Set<String> silent = new TreeSet<>();
        long now = clock.millis();
        cursors().forEach((address, c) -> {
            if (now - c.lastSeenMs() > after.toMillis()) {
                silent.add(address);
            }
        });
        return silent;
    }

    /** How long since the filer heard from most recently sent anything: the lag while every stream is caught up. */
    Duration leastSilence() {
        return tails.values().stream().map(t -> t.subscription.silentFor()).min(Duration::compareTo)
                .orElse(Duration.ZERO);
    }

    /** Reconnects since the last call, over every stream. */
    int newReconnects() {
        int n = 0;
        for (Tail tail : tails.values()) {
            int r = tail.subscription.reconnects();
            n += r - tail.reconnectsSeen;
            tail.reconnectsSeen = r;
        }
        return n;
    }

    /** Events a stream sent behind a newer one of its own (never for one filer's own log) since the last call. */
    long newOutOfOrder() {
        long n = 0;
        for (Tail tail : tails.values()) {
            long o = tail.subscription.outOfOrder();
            n += o - tail.outOfOrderSeen;
            tail.outOfOrderSeen = o;
        }
        return n;
    }

    @Override
    public void close() {
        tails.values().forEach(Tail::close);
        tails.clear();
    }
}
