package io.tidemark.lifecycle.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The length of a lifecycle "day" and the due-time policy. Production uses 24-hour days; tests shrink the
 * day to seconds so that a rule of several days falls due within a test. Day boundaries are whole multiples
 * of the day length since the epoch, which for 24-hour days is 00:00 UTC.
 */
public final class LifecycleCalendar {

    private final DuePolicy policy;
    private final Duration dayLength;
    private final long daySeconds;

    private LifecycleCalendar(DuePolicy policy, Duration dayLength) {
        this.policy = Objects.requireNonNull(policy, "policy");
        if (dayLength.isNegative() || dayLength.isZero() || dayLength.getNano() != 0) {
            throw new IllegalArgumentException("the lifecycle day must be a positive whole number of seconds, not "
                    + dayLength);
        }
        this.dayLength = dayLength;
        this.daySeconds = dayLength.getSeconds();
    }

    public static LifecycleCalendar of(DuePolicy policy, Duration dayLength) {
        return new LifecycleCalendar(policy, dayLength);
    }

    /** S3's calendar: 24-hour days, due times rounded up to midnight UTC. */
    public static LifecycleCalendar aws() {
        return of(DuePolicy.AWS, Duration.ofDays(1));
    }

    public DuePolicy policy() {
        return policy;
    }

    public Duration dayLength() {
        return dayLength;
    }

    /** The length of {@code days} lifecycle days. */
    public Duration span(int days) {
        // Whole seconds by construction; Duration.multipliedBy goes through BigDecimal, which showed in profiles.
        return Duration.ofSeconds(Math.multiplyExact(daySeconds, (long) days));
    }

    /**
     * The instant {@code days} days after {@code base}. Under {@link DuePolicy#AWS} an instant that is not
     * exactly on a day boundary moves up to the next one; one already on a boundary stays.
     */
    public Instant dueAt(Instant base, int days) {
        Instant raw = base.plusSeconds(Math.multiplyExact(daySeconds, (long) days));
        if (policy == DuePolicy.EXACT) {
            return raw;
        }
        long seconds = raw.getEpochSecond();
        if (raw.getNano() == 0 && Math.floorMod(seconds, daySeconds) == 0) {
            return raw;
        }
        return Instant.ofEpochSecond(Math.multiplyExact(Math.floorDiv(seconds, daySeconds) + 1, daySeconds));
    }

    @Override
    public String toString() {
        return "LifecycleCalendar[policy=" + policy.configName() + ", dayLength=" + dayLength + "]";
    }
}
