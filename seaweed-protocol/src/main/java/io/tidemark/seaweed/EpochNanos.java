package io.tidemark.seaweed;

import java.time.Instant;

/** The filer's time unit: nanoseconds since the Unix epoch, as in {@code ts_ns}, {@code since_ns} and mtime_ns. */
public final class EpochNanos {

    private EpochNanos() {
    }

    public static long of(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

    public static Instant toInstant(long epochNanos) {
        return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
    }
}
