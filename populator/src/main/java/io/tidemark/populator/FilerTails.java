package io.tidemark.populator;

import io.tidemark.messages.PopulatorCheckpoint.FilerCursor;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import java.time.Clock;
import java.time.Duration;
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

    private final class Tail {
        final String address;
        final FilerClient client;
        final MetadataSubscription subscription;
        FilerCursor cursor;
        int reconnectsSeen;
        long outOfOrderSeen;

        Tail(String address, FilerCursor from) {
            this.address = address;
            this.client = connect.apply(address);
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
            subscription.close();
            client.close();
        }
    }

    private final PopulatorSettings settings;
    private final String pathPrefix;
    private final Function<String, FilerClient> connect;
    private final FilerMerge merge;
    private final Clock clock;
    private final Map<String, Tail> tails = new LinkedHashMap<>();

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
                // A stream whose events wait in the merge (another filer holds the watermark) is not read further:
                // its subscription's buffer fills and slows it, instead of the heap.
                int room = maxPendingPerFiler() - merge.pendingOf(tail.address);
                for (int i = 0; i < Math.min(room, settings.batchMaxEvents()); i++) {
                    FilerEvent event = tail.subscription.pollEvent(Duration.ZERO);
                    if (event == null) {
                        break;
                    }
                    merge.offer(tail.address, event);
                    moved++;
                }
            }
            if (moved > 0 || System.nanoTime() - deadline >= 0 || tails.isEmpty()) {
                return moved;
            }
            Thread.sleep(2);
        }
    }

    private int maxPendingPerFiler() {
        return 4 * settings.batchMaxEvents();
    }

    /** Moves the cursor of the filer an event left the merge from. */
    void taken(FilerMerge.Taken taken) {
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
