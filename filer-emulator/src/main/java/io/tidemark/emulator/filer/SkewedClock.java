package io.tidemark.emulator.filer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/** One filer's wall clock: the emulator's clock plus an offset that can be changed, as a host's clock is stepped. */
final class SkewedClock extends Clock {

    private final Clock base;
    private volatile Duration offset = Duration.ZERO;

    SkewedClock(Clock base) {
        this.base = base;
    }

    void setOffset(Duration value) {
        offset = value;
    }

    Duration offset() {
        return offset;
    }

    @Override
    public Instant instant() {
        return base.instant().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return base.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a filer's clock has the emulator's zone");
    }
}
