package io.tidemark.checker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The system clock, set off by an offset the checker changes while the service reading it runs: a host whose clock an
 * NTP step moved, or that drifted while NTP was away. The test-only clock offset of a service instance.
 */
final class SkewedClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    synchronized void set(Duration offset) {
        this.offset = offset;
    }

    /** Back to the true time, if the offset is still {@code expected} (a later skew is left to its own reset). */
    synchronized void reset(Duration expected) {
        if (offset.equals(expected)) {
            offset = Duration.ZERO;
        }
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public long millis() {
        return System.currentTimeMillis() + offset.toMillis();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a UTC clock");
    }
}
