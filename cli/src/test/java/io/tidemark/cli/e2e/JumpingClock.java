package io.tidemark.cli.e2e;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * The system clock, which a test can move forward in one jump: a filer's next minute (its next meta-log file) without
 * waiting for it. Services in other processes keep the real time, so a jump is only made where a few seconds of skew
 * between the filer and them do not matter.
 */
final class JumpingClock extends Clock {

    private volatile Duration ahead = Duration.ZERO;

    /** Moves the clock to just past the start of its next minute. */
    void jumpToNextMinute() {
        Instant now = instant();
        ahead = ahead.plus(Duration.between(now, now.truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1))))
                .plusMillis(1);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(ahead);
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
