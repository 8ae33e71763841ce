package io.tidemark.populator;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.UnsafeByteOperations;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The most recent released events, by stamp and content, so that a second copy of one (a filer's catch-up from the
 * shared log files returns its peers' events too) is recognised. Bounded: the oldest are forgotten first, and
 * {@link #covers} says whether an event stamped at some time could still be recognised.
 */
final class Fingerprints {

    private final int capacity;
    /** The fingerprints held, by open addressing with linear probing; 0 marks a free slot, so digests are held
     * as {@link Fnv#nonZero} gives them. */
    private final long[] table;
    private final int mask;
    /** The fingerprints and stamps held, oldest first, as a ring: no allocation per event. */
    private final long[] ringFingerprints;
    private final long[] ringStamps;
    private int oldest;
    private int size;
    /** Events stamped before this were released before the memory began, or forgotten since. */
    private long coveredFromNs;

    Fingerprints(int capacity, long releasedBeforeNs) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
        // At most half full, so probes stay short.
        int slots = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1) << 1;
        this.table = new long[slots];
        this.mask = slots - 1;
        this.ringFingerprints = new long[capacity];
        this.ringStamps = new long[capacity];
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
        long key = Fnv.nonZero(fingerprint);
        for (int i = slotOf(key); ; i = (i + 1) & mask) {
            long held = table[i];
            if (held == key) {
                return true;
            }
            if (held == 0) {
                return false;
            }
        }
    }

    /** Whether a copy of an event stamped {@code tsNs} would still be recognised. */
    boolean covers(long tsNs) {
        return tsNs >= coveredFromNs;
    }

    void add(long fingerprint, long tsNs) {
        long key = Fnv.nonZero(fingerprint);
        int i = slotOf(key);
        for (; table[i] != 0; i = (i + 1) & mask) {
            if (table[i] == key) {
                return;
            }
        }
        if (size == capacity) {
            remove(ringFingerprints[oldest]);
            coveredFromNs = Math.max(coveredFromNs, ringStamps[oldest] + 1);
            oldest = (oldest + 1) % capacity;
            size--;
            // The removal may have moved entries along the probe sequence: find the free slot again.
            i = slotOf(key);
            while (table[i] != 0) {
                i = (i + 1) & mask;
            }
        }
        table[i] = key;
        int newest = (oldest + size) % capacity;
        ringFingerprints[newest] = key;
        ringStamps[newest] = tsNs;
        size++;
    }

    /** Removes a held key, shifting back the entries after it that probed past its slot (no tombstones). */
    private void remove(long key) {
        int i = slotOf(key);
        while (table[i] != key) {
            i = (i + 1) & mask;
        }
        int free = i;
        for (int j = (free + 1) & mask; table[j] != 0; j = (j + 1) & mask) {
            int home = slotOf(table[j]);
            // table[j] may fill the free slot when its home does not lie cyclically within (free, j].
            if (((j - home) & mask) >= ((j - free) & mask)) {
                table[free] = table[j];
                free = j;
            }
        }
        table[free] = 0;
    }

    private int slotOf(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 32) & mask;
    }
}
