package io.tidemark.cli.lifecycle;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The stretch of time a what-if looks at: "now" (everything due at or before the instant the walk started, read
 * on the filer's clock, which is what due times are compared with in the pipeline), then {@code days} lifecycle
 * days after it. Day {@code i} holds what falls due in {@code (now + (i-1)·day, now + i·day]}.
 */
record Horizon(Instant now, Duration day, int days) {

    /** The slot of what is due at or before now. */
    static final int NOW = 0;
    /** What falls due after the horizon's end. */
    static final int BEYOND = -1;

    Horizon {
        Objects.requireNonNull(now, "now");
        if (day.isNegative() || day.isZero()) {
            throw new IllegalArgumentException("a lifecycle day must be positive, not " + day);
        }
        if (days < 0) {
            throw new IllegalArgumentException("days must not be negative, not " + days);
        }
    }

    Instant end() {
        return dayEnd(days);
    }

    /** {@link #NOW}, a day {@code 1..days}, or {@link #BEYOND}. */
    int slot(Instant dueAt) {
        if (!dueAt.isAfter(now)) {
            return NOW;
        }
        if (dueAt.isAfter(end())) {
            return BEYOND;
        }
        long nanos = Duration.between(now, dueAt).toNanos();
        long dayNanos = day.toNanos();
        return (int) ((nanos + dayNanos - 1) / dayNanos);
    }

    /** Where day {@code i} ends (inclusive); day 0 ends now. */
    Instant dayEnd(int i) {
        return now.plus(day.multipliedBy(i));
    }
}
