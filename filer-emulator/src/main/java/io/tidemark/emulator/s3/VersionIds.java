package io.tidemark.emulator.s3;

import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Version IDs and the clock stamps they are made of. One instance serves a whole gateway: chunk file keys are
 * drawn from the same stamps, so neither an ID's time part nor a file key repeats while the clock stands still.
 */
final class VersionIds {

    private final Clock clock;
    private final AtomicLong lastNanos = new AtomicLong();

    VersionIds(Clock clock) {
        this.clock = clock;
    }

    /**
     * A version ID in SeaweedFS's current format: 16 hex digits of (MaxInt64 - now in ns), so newer versions
     * sort first, then 16 random hex digits.
     */
    String next() {
        return String.format("%016x%016x", Long.MAX_VALUE - nextNanos(), ThreadLocalRandom.current().nextLong());
    }

    /** Clock nanoseconds, strictly increasing across calls. */
    long nextNanos() {
        long nanos = EpochNanos.of(clock.instant());
        return lastNanos.updateAndGet(last -> Math.max(last + 1, nanos));
    }

    /** The version a {@code .versions} file holds: its stamped ID, else the one its name carries. */
    static String of(Entry versionFile) {
        return S3Entries.text(versionFile, S3Layout.VERSION_ID)
                .orElse(S3Layout.versionIdOfFileName(versionFile.getName()));
    }

    /**
     * Upstream's version-ID order, newest first: "null" is the oldest; IDs of the current format (inverted time)
     * sort ascending. The emulator only makes IDs of the current format.
     */
    static int compare(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        if (a.equals(S3Layout.NULL_VERSION_ID)) {
            return 1;
        }
        if (b.equals(S3Layout.NULL_VERSION_ID)) {
            return -1;
        }
        return a.compareTo(b);
    }
}
