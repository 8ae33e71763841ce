package io.tidemark.populator;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import java.io.IOException;
import java.io.UncheckedIOException;
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

    /**
     * A 64-bit digest of the event's stamp, directory and notification. Go writes a map in random order, so two copies
     * of one event (one served from a filer's memory, one read back from the log files by its peer) often differ byte
     * for byte when an entry has more than one extended attribute: such a notification is digested as encoded again
     * with its maps in key order. Otherwise the bytes as the filer encoded them are canonical already.
     */
    static long of(FilerEvent event) {
        EventNotification n = event.response().getEventNotification();
        ByteString bytes = event.encodedNotification() != null && !unorderedMaps(n) ? event.encodedNotification()
                : canonical(n);
        long h = Fnv.longValue(Fnv.START, event.response().getTsNs());
        h = Fnv.string(h, event.response().getDirectory());
        return Fnv.bytes(h, bytes);
    }

    private static boolean unorderedMaps(EventNotification n) {
        return n.getOldEntry().getExtendedCount() > 1 || n.getNewEntry().getExtendedCount() > 1;
    }

    private static ByteString canonical(EventNotification n) {
        byte[] out = new byte[n.getSerializedSize()];
        CodedOutputStream stream = CodedOutputStream.newInstance(out);
        stream.useDeterministicSerialization();
        try {
            n.writeTo(stream);
        } catch (IOException e) {
            throw new UncheckedIOException("encoding an event notification into an array of its own size", e);
        }
        stream.checkNoSpaceLeft();
        return UnsafeByteOperations.unsafeWrap(out);
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
