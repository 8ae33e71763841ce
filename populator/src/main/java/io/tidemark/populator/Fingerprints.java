package io.tidemark.populator;

import com.google.protobuf.ByteString;
import io.tidemark.seaweed.client.FilerEvent;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Set;

/**
 * The most recent released events, by stamp and content, so that a second copy of one (a filer's catch-up from the
 * shared log files returns its peers' events too) is recognised. Bounded: the oldest are forgotten first, and
 * {@link #covers} says whether an event stamped at some time could still be recognised.
 */
final class Fingerprints {

    private final int capacity;
    private final Set<Long> held = new HashSet<>();
    private final ArrayDeque<long[]> order = new ArrayDeque<>();
    /** Events stamped before this were released before the memory began, or forgotten since. */
    private long coveredFromNs;

    Fingerprints(int capacity, long releasedBeforeNs) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        this.coveredFromNs = releasedBeforeNs + 1;
    }

    /** A 64-bit digest of the event's stamp, directory and notification as the filer encoded it. */
    static long of(FilerEvent event) {
        ByteString bytes = event.encodedNotification() != null ? event.encodedNotification()
                : event.response().getEventNotification().toByteString();
        long h = Fnv.longValue(Fnv.START, event.response().getTsNs());
        h = Fnv.string(h, event.response().getDirectory());
        return Fnv.bytes(h, bytes);
    }

    boolean contains(long fingerprint) {
        return held.contains(fingerprint);
    }

    /** Whether a copy of an event stamped {@code tsNs} would still be recognised. */
    boolean covers(long tsNs) {
        return tsNs >= coveredFromNs;
    }

    void add(long fingerprint, long tsNs) {
        if (!held.add(fingerprint)) {
            return;
        }
        order.addLast(new long[] {fingerprint, tsNs});
        while (order.size() > capacity) {
            long[] oldest = order.removeFirst();
            held.remove(oldest[0]);
            coveredFromNs = Math.max(coveredFromNs, oldest[1] + 1);
        }
    }
}
