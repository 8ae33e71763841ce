package io.tidemark.populator;

import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Several filers' own meta-logs merged into one stream. Each filer stamps its own events in strictly increasing
 * order, but the streams arrive at their own pace and the filers' clocks disagree a little:
 *
 * <ul>
 *   <li>An event is released once every filer that holds the merge back has sent an event stamped at least
 *       {@code maxClockSkew} after it (the watermark: the least of their newest stamps), in stamp order, so a slow
 *       filer's older events still go first.</li>
 *   <li>Within that margin, an event that changes an entry another filer's pending event wrote (its old entry is
 *       that event's new entry: they share one store) is released after it, with everything its filer sent before
 *       it: a PUT through one filer and a DELETE of the same object through another reach the meta-log in the order
 *       they happened although the second filer's clock is behind the first's.</li>
 *   <li>A filer that has sent no event for {@code holdMax} (idle, or gone) stops holding the merge back, so it
 *       delays the others by that much at most; an event it sends later stamped before what was released meanwhile
 *       is released at once and counted late — published, never lost, though behind newer events of others.</li>
 *   <li>On a shared store, a filer catching up from its log files also returns its peers' events (upstream reads every
 *       filer's files). The second copy of an event is taken as a duplicate (its filer's cursor moves past it all
 *       the same); copies are recognised by stamp and content among the {@code remembered} events released last, and
 *       a late event older than that memory reaches is released and counted unverified.</li>
 * </ul>
 *
 * <p>Not thread-safe: one tail loop offers and releases.
 */
final class FilerMerge {

    /** An event leaving the merge, from {@code filer}'s stream. */
    record Taken(String filer, FilerEvent event, boolean duplicate, boolean late, boolean unverified) {
        long tsNs() {
            return event.response().getTsNs();
        }
    }

    private record Pending(String filer, FilerEvent event, String wrote, String changed) {
        long tsNs() {
            return event.response().getTsNs();
        }
    }

    private static final class Stream {
        final ArrayDeque<Pending> pending = new ArrayDeque<>();
        long newestTsNs;
        long lastEventNanos;
    }

    private final Duration holdMax;
    private final long skewNs;
    private final LongSupplier nanoTime;
    private final Map<String, Stream> streams = new LinkedHashMap<>();
    /** Pending events by the entry they wrote (path and identity), for the event of another filer that changes it. */
    private final Map<String, Pending> byWritten = new HashMap<>();
    private final Fingerprints released;
    private long releasedTsNs;
    private int pendingCount;

    /**
     * @param resumedAtNs the newest stamp released before this merge began (from the checkpoint): an event stamped
     *                    before it is late, and cannot be checked against copies released before the restart
     */
    FilerMerge(Duration holdMax, Duration maxClockSkew, int remembered, long resumedAtNs, LongSupplier nanoTime) {
        this.holdMax = holdMax;
        this.skewNs = maxClockSkew.toNanos();
        this.nanoTime = nanoTime;
        this.releasedTsNs = resumedAtNs;
        this.released = new Fingerprints(remembered, resumedAtNs);
    }

    /** A filer whose stream is merged from now on; it holds the merge back until it sends or falls quiet. */
    void addFiler(String filer) {
        streams.computeIfAbsent(filer, f -> {
            Stream s = new Stream();
            s.lastEventNanos = nanoTime.getAsLong();
            return s;
        });
    }

    /** A filer no longer merged (retired); what it sent and is still pending is dropped with it. */
    void removeFiler(String filer) {
        Stream s = streams.remove(filer);
        if (s != null) {
            for (Pending p : s.pending) {
                forget(p);
            }
            pendingCount -= s.pending.size();
        }
    }

    Set<String> filers() {
        return new TreeSet<>(streams.keySet());
    }

    /** The next event of {@code filer}'s stream, in that stream's order. */
    void offer(String filer, FilerEvent event) {
        Stream stream = streams.get(filer);
        if (stream == null) {
            throw new IllegalArgumentException("not a merged filer: " + filer);
        }
        stream.newestTsNs = Math.max(stream.newestTsNs, event.response().getTsNs());
        stream.lastEventNanos = nanoTime.getAsLong();
        EventNotification n = event.response().getEventNotification();
        String directory = event.response().getDirectory();
        String newDirectory = n.getNewParentPath().isEmpty() ? directory : n.getNewParentPath();
        Pending p = new Pending(filer, event, n.hasNewEntry() ? entryKey(newDirectory, n.getNewEntry()) : null,
                n.hasOldEntry() ? entryKey(directory, n.getOldEntry()) : null);
        stream.pending.addLast(p);
        pendingCount++;
        if (p.wrote() != null) {
            byWritten.putIfAbsent(p.wrote(), p);
        }
    }

    private static String entryKey(String directory, Entry entry) {
        EntryIdentity id = EntryIdentity.of(entry);
        return directory + "/" + entry.getName() + "\u0000" + id.mtimeNs() + ":" + id.size() + ":" + id.headFid() + ":"
                + HexFormat.of().formatHex(id.extendedHash());
    }

    /**
     * The stamp up to which events may go: the least newest stamp among filers still holding the merge back, or
     * {@link Long#MAX_VALUE} when none does.
     */
    long watermark() {
        long now = nanoTime.getAsLong();
        long low = Long.MAX_VALUE;
        for (Stream s : streams.values()) {
            if (holds(s, now)) {
                low = Math.min(low, s.newestTsNs);
            }
        }
        return low;
    }

    /** Filers that hold the merge back no longer: quiet for longer than {@code holdMax}. */
    Set<String> quiet() {
        long now = nanoTime.getAsLong();
        Set<String> quiet = new TreeSet<>();
        streams.forEach((filer, s) -> {
            if (!holds(s, now)) {
                quiet.add(filer);
            }
        });
        return quiet;
    }

    private boolean holds(Stream s, long now) {
        return now - s.lastEventNanos < holdMax.toNanos();
    }

    int pendingEvents() {
        return pendingCount;
    }

    /** Releases, in stamp order (causes first), at most {@code max} events the watermark or lateness lets go. */
    List<Taken> release(int max) {
        long watermark = watermark();
        long limit = watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark - skewNs;
        List<Taken> out = new ArrayList<>();
        while (out.size() < max) {
            Stream first = null;
            for (Stream s : streams.values()) {
                if (!s.pending.isEmpty() && (first == null || s.pending.peekFirst().tsNs() < first.pending.peekFirst()
                        .tsNs())) {
                    first = s;
                }
            }
            if (first == null) {
                break;
            }
            Pending head = first.pending.peekFirst();
            if (head.tsNs() >= releasedTsNs && head.tsNs() > limit) {
                break;
            }
            emit(head, out, new HashSet<>());
        }
        return out;
    }

    /**
     * Releases {@code p}, the head of its stream, after the pending event of another filer that wrote the entry it
     * changes, and everything that filer sent before that one.
     */
    private void emit(Pending p, List<Taken> out, Set<Pending> visiting) {
        visiting.add(p);
        Pending cause = p.changed() == null ? null : byWritten.get(p.changed());
        if (cause != null && !cause.filer().equals(p.filer()) && !visiting.contains(cause)) {
            Stream causes = streams.get(cause.filer());
            while (causes != null && causes.pending.contains(cause)) {
                Pending before = causes.pending.peekFirst();
                if (visiting.contains(before)) {
                    break;
                }
                emit(before, out, visiting);
            }
        }
        Stream own = streams.get(p.filer());
        if (own == null || own.pending.peekFirst() != p) {
            return;
        }
        own.pending.removeFirst();
        pendingCount--;
        forget(p);
        long ts = p.tsNs();
        boolean late = ts < releasedTsNs;
        long fingerprint = Fingerprints.of(p.event());
        boolean duplicate = released.contains(fingerprint);
        boolean unverified = late && !duplicate && !released.covers(ts);
        if (!duplicate) {
            released.add(fingerprint, ts);
        }
        releasedTsNs = Math.max(releasedTsNs, ts);
        out.add(new Taken(p.filer(), p.event(), duplicate, late && !duplicate, unverified));
    }

    private void forget(Pending p) {
        if (p.wrote() != null) {
            byWritten.remove(p.wrote(), p);
        }
    }

    /** The newest stamp released. */
    long releasedTsNs() {
        return releasedTsNs;
    }
}
