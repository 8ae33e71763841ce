package io.tidemark.emulator;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A clock set off from another by an offset changed while its readers run: a host whose clock an NTP step moved, or
 * that drifted while NTP was away. An emulated filer's clock, and the checker's clock of a service instance.
 */
public final class SkewedClock extends Clock {

    private final Clock base;
    private volatile Duration offset = Duration.ZERO;

    public SkewedClock(Clock base) {
        this.base = base;
    }

    public synchronized void set(Duration value) {
        offset = value;
    }

    /** Back to the base's time, if the offset is still {@code expected} (a later skew is left to its own reset). */
    public synchronized void reset(Duration expected) {
        if (offset.equals(expected)) {
            offset = Duration.ZERO;
        }
    }

    public Duration offset() {
        return offset;
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset);
    }

    @Override
    public long millis() {
        return base.millis() + offset.toMillis();
    }

    @Override
    public ZoneId getZone() {
        return base.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a skewed clock keeps its base's zone");
    }
}
