package io.tidemark.populator;

import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
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
 *   <li>A filer that has sent no event for {@code holdMax} (idle, or gone) holds the merge back only to the present
 *       less {@code holdMax}, so it delays the others by that much at most; an event it sends later stamped before
 *       what was released meanwhile (it lagged longer than that) is released at once and counted late — published,
 *       never lost, though behind newer events of others.</li>
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

    /**
     * Digests are never 0, which stands for none ({@link #NONE}), so the fields need no boxes (the indexes still box
     * their keys).
     *
     * @param wrote   the entry it wrote, by path and identity ({@code NONE}: none)
     * @param changed the entry it changed or removed, by path and identity ({@code NONE}: none, a creation)
     * @param freed   the path it removed an entry from ({@code NONE}: not a removal)
     * @param created the path it created an entry at ({@code NONE}: not a creation)
     * @param late    stamped before the watermark had already let events go when it came
     * @param fingerprint its stamp and content ({@link Fingerprints#of})
     */
    private record Pending(String filer, FilerEvent event, long wrote, long changed, long freed,
                           long created, boolean late, long fingerprint) {
        long tsNs() {
            return event.response().getTsNs();
        }
    }

    private static final class Stream {
        final ArrayDeque<Pending> pending = new ArrayDeque<>();
        /** A second read of a span a filer's stream may have skipped: it never holds the merge back. */
        boolean reread;
        long newestTsNs;
        long lastEventNanos;
    }

    /** No entry or path: digests are never 0. */
    private static final long NONE = 0;

    private final Duration holdMax;
    private final long skewNs;
    private final LongSupplier nanoTime;
    private final Map<String, Stream> streams = new LinkedHashMap<>();
    /** Pending events by the entry they wrote (path and identity), for the event of another filer that changes it. */
    private final Map<Long, List<Pending>> byWritten = new HashMap<>();
    /** Pending removals by path, for the event of another filer that creates an entry there again. */
    private final Map<Long, List<Pending>> byFreed = new HashMap<>();
    private final Fingerprints released;
    /**
     * How far the watermark has let events go: an event stamped before it that comes now is late. Moved only when a
     * release stopped at the watermark, not at its size.
     */
    private long releasedTsNs;
    /** The newest stamp offered: the watermark's progress is not claimed past what has been seen. */
    private long maxStampSeen;

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

    /**
     * A second read of a span of a filer's log ({@code name}: not a filer's address), merged from now on without
     * holding the merge back: its events are copies of what was released (dropped as duplicates) or what the filer's
     * stream skipped, released late. Remove it ({@link #removeFiler}) once it has ended and nothing of it is pending.
     */
    void addReread(String name) {
        streams.computeIfAbsent(name, f -> {
            Stream s = new Stream();
            s.reread = true;
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
        }
    }

    /** The next event of {@code filer}'s stream, in that stream's order. */
    void offer(String filer, FilerEvent event) {
        Stream stream = streams.get(filer);
        if (stream == null) {
            throw new IllegalArgumentException("not a merged filer: " + filer);
        }
        stream.newestTsNs = Math.max(stream.newestTsNs, event.response().getTsNs());
        maxStampSeen = Math.max(maxStampSeen, event.response().getTsNs());
        stream.lastEventNanos = nanoTime.getAsLong();
        long fingerprint = Fingerprints.of(event);
        boolean late = event.response().getTsNs() < releasedTsNs;
        if (released.contains(fingerprint)) {
            // A copy of an event already released (two of every three in a catch-up of three filers): it waits only
            // for its own stream's order, to move that filer's cursor past it, and is no cause of anything any more.
            stream.pending.addLast(new Pending(filer, event, NONE, NONE, NONE, NONE, late, fingerprint));
            return;
        }
        EventNotification n = event.response().getEventNotification();
        String directory = event.response().getDirectory();
        String newDirectory = n.getNewParentPath().isEmpty() ? directory : n.getNewParentPath();
        Pending p = new Pending(filer, event, n.hasNewEntry() ? entryKey(newDirectory, n.getNewEntry()) : NONE,
                n.hasOldEntry() ? entryKey(directory, n.getOldEntry()) : NONE,
                n.hasOldEntry() && !n.hasNewEntry() ? path(directory, n.getOldEntry()) : NONE,
                n.hasNewEntry() && !n.hasOldEntry() ? path(newDirectory, n.getNewEntry()) : NONE,
                late, fingerprint);
        stream.pending.addLast(p);
        // Every copy is indexed (a catch-up returns peers' events too): a copy on another filer's stream is a cause.
        if (p.wrote() != NONE) {
            byWritten.computeIfAbsent(p.wrote(), k -> new ArrayList<>(1)).add(p);
        }
        if (p.freed() != NONE) {
            byFreed.computeIfAbsent(p.freed(), k -> new ArrayList<>(1)).add(p);
        }
    }

    /** An entry's path, as a 64-bit digest (never {@link #NONE}). */
    private static long path(String directory, Entry entry) {
        return Fnv.nonZero(pathDigest(directory, entry));
    }

    private static long pathDigest(String directory, Entry entry) {
        long h = Fnv.string(Fnv.START, directory);
        h = Fnv.bytes(h, (byte) '/');
        return Fnv.string(h, entry.getName());
    }

    /**
     * An entry as one event wrote it, as a 64-bit digest: its path, its times, size, digest, chunks, inline content and
     * extended attributes (in any order) — what tells two writes in one second apart. The old entry of the next change
     * is the same entry read back, so it digests the same.
     */
    private static long entryKey(String directory, Entry entry) {
        FuseAttributes a = entry.getAttributes();
        long h = pathDigest(directory, entry);
        for (long v : new long[] {a.getMtime(), a.getMtimeNs(), a.getFileSize(), a.getCrtime(), a.getCrtimeNs(),
                a.getCtime(), a.getCtimeNs(), entry.getContent().size(), entry.getContent().hashCode()}) {
            h = Fnv.longValue(h, v);
        }
        h = Fnv.bytes(h, a.getMd5());
        for (FileChunk chunk : entry.getChunksList()) {
            h = Fnv.longValue(Fnv.string(h, chunk.getFileId()), chunk.getOffset());
        }
        long extended = 0;
        for (Map.Entry<String, com.google.protobuf.ByteString> attribute : entry.getExtendedMap().entrySet()) {
            extended ^= Fnv.bytes(Fnv.string(Fnv.START, attribute.getKey()), attribute.getValue());
        }
        return Fnv.nonZero(Fnv.longValue(h, extended));
    }

    /**
     * The stamp up to which events may go: the least, over the filers, of the newest stamp each has sent — or, for one
     * that has sent nothing for {@code holdMax}, the cluster's present less {@code holdMax}: whatever it sends next is
     * stamped by its clock, which is no further than the skew behind the others'. The present is estimated from the
     * filers' own stamps (the newest plus the time since it came), not from this host's clock, which may be off.
     */
    long watermark() {
        if (streams.values().stream().filter(s -> !s.reread).count() <= 1) {
            // One filer's own stream is in order already: nothing to wait for.
            return Long.MAX_VALUE;
        }
        long now = nanoTime.getAsLong();
        long present = Long.MIN_VALUE;
        for (Stream s : streams.values()) {
            if (s.newestTsNs > 0 && !s.reread) {
                present = Math.max(present, s.newestTsNs + (now - s.lastEventNanos));
            }
        }
        long low = Long.MAX_VALUE;
        for (Stream s : streams.values()) {
            if (s.reread) {
                continue;
            }
            long w = holds(s, now) ? s.newestTsNs : present == Long.MIN_VALUE ? Long.MAX_VALUE
                    : Math.max(s.newestTsNs, present - holdMax.toNanos());
            low = Math.min(low, w);
        }
        return low;
    }

    /** Filers quiet for longer than {@code holdMax}, which hold the merge back only that far behind the present. */
    Set<String> quiet() {
        long now = nanoTime.getAsLong();
        Set<String> quiet = new TreeSet<>();
        streams.forEach((filer, s) -> {
            if (!s.reread && !holds(s, now)) {
                quiet.add(filer);
            }
        });
        return quiet;
    }

    private boolean holds(Stream s, long now) {
        return now - s.lastEventNanos < holdMax.toNanos();
    }

    /** Whether a copy of an event stamped {@code tsNs}, released before, would be recognised if it came again. */
    boolean recognisesCopiesFrom(long tsNs) {
        return released.covers(tsNs);
    }

    /** How far apart the stamps of {@code filer}'s pending events are (0: fewer than two). */
    long pendingSpanNs(String filer) {
        Stream s = streams.get(filer);
        return s == null || s.pending.size() < 2 ? 0 : s.pending.peekLast().tsNs() - s.pending.peekFirst().tsNs();
    }

    /** Events of {@code filer} offered and not yet released. */
    int pendingOf(String filer) {
        Stream s = streams.get(filer);
        return s == null ? 0 : s.pending.size();
    }

    /**
     * Releases, in stamp order (causes first), the events the watermark or lateness lets go, until {@code max} of them
     * are to be published: duplicates go out with them, uncounted.
     */
    List<Taken> release(int max) {
        long watermark = watermark();
        long limit = watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark - skewNs;
        List<Taken> out = new ArrayList<>();
        int published = 0;
        while (published < max) {
            Pending next = null;
            Pending firstDue = null;
            boolean waitingForCause = false;
            for (Stream s : streams.values()) {
                Pending head = s.pending.peekFirst();
                if (head == null || !head.late() && head.tsNs() > limit) {
                    continue;
                }
                if (firstDue == null || head.tsNs() < firstDue.tsNs()) {
                    firstDue = head;
                }
                Pending cause = causeOf(head);
                if (cause != null) {
                    // Its cause comes first; the cause's filer must get there in its own order.
                    Pending causeHead = streams.get(cause.filer()).pending.peekFirst();
                    waitingForCause |= causeHead.late() || causeHead.tsNs() <= limit;
                    continue;
                }
                if (next == null || head.tsNs() < next.tsNs()) {
                    next = head;
                }
            }
            if (next == null && firstDue != null && waitingForCause) {
                // Every due head waits for a cause that waits in turn: copies of peers' events in a catch-up, in
                // their stamps' order, can make such a ring. Stamp order breaks it.
                next = firstDue;
            }
            if (next == null) {
                break;
            }
            if (!emit(next, out)) {
                published++;
            }
        }
        if (limit != Long.MAX_VALUE && published < max) {
            // Everything stamped up to here has gone out (or was late already): what comes stamped before it is late.
            releasedTsNs = Math.max(releasedTsNs, Math.min(limit, maxStampSeen));
        }
        return out;
    }

    /**
     * The pending event of another filer that {@code p} must follow: the one that wrote the entry it changes, or that
     * removed the entry at the path it creates one at again.
     */
    private Pending causeOf(Pending p) {
        List<Pending> causes = p.changed() != NONE ? byWritten.get(p.changed())
                : p.created() != NONE ? byFreed.get(p.created()) : null;
        if (causes == null) {
            return null;
        }
        for (Pending cause : causes) {
            if (p.changed() == NONE && removes(cause, p)) {
                // The removal takes away what this creation wrote (or what a change of it wrote): it follows.
                continue;
            }
            if (!cause.filer().equals(p.filer()) && streams.containsKey(cause.filer())) {
                return cause;
            }
        }
        return null;
    }

    /** Whether {@code removal} removes what {@code creation} wrote, or what pending changes of that wrote. */
    private boolean removes(Pending removal, Pending creation) {
        long removed = removal.changed();
        for (int step = 0; removed != NONE && step < 64; step++) {
            List<Pending> writers = byWritten.get(removed);
            if (writers == null || writers.isEmpty()) {
                return false;
            }
            if (writers.contains(creation)) {
                return true;
            }
            removed = writers.get(0).changed();
        }
        return false;
    }

    /** Releases {@code p}, the head of its stream; returns whether it is a duplicate. */
    private boolean emit(Pending p, List<Taken> out) {
        Stream own = streams.get(p.filer());
        own.pending.removeFirst();
        forget(p);
        long ts = p.tsNs();
        boolean late = p.late();
        long fingerprint = p.fingerprint();
        boolean duplicate = released.contains(fingerprint);
        boolean unverified = late && !duplicate && !released.covers(ts);
        if (!duplicate) {
            released.add(fingerprint, ts);
        }
        out.add(new Taken(p.filer(), p.event(), duplicate, late && !duplicate, unverified));
        return duplicate;
    }

    private void forget(Pending p) {
        forget(byWritten, p.wrote(), p);
        forget(byFreed, p.freed(), p);
    }

    private static void forget(Map<Long, List<Pending>> index, long key, Pending p) {
        if (key == NONE) {
            return;
        }
        List<Pending> copies = index.get(key);
        if (copies != null) {
            copies.remove(p);
            if (copies.isEmpty()) {
                index.remove(key);
            }
        }
    }

    /** How far the watermark has let events go (see {@link #releasedTsNs}). */
    long releasedTsNs() {
        return releasedTsNs;
    }
}
