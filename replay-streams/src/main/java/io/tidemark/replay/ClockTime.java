package io.tidemark.replay;

import java.time.Clock;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.utils.Time;

/**
 * Kafka's {@link Time} read from a {@link Clock}: what wall-clock punctuations fire by, so that timers fall due by
 * the service's clock like every other service's decisions. Nanosecond measurements keep the JVM's monotonic clock;
 * Kafka Streams' own millisecond timers (commit interval, poll and idle timeouts, state clean-up) follow the given
 * clock too, so a clock that jumps makes them fire early or late, never a record lost or doubled.
 */
final class ClockTime implements Time {

    private final Clock clock;

    private ClockTime(Clock clock) {
        this.clock = clock;
    }

    /** The system clock's time is Kafka's own. */
    static Time of(Clock clock) {
        return clock.equals(Clock.systemUTC()) || clock.equals(Clock.systemDefaultZone()) ? Time.SYSTEM
                : new ClockTime(clock);
    }

    @Override
    public long milliseconds() {
        return clock.millis();
    }

    @Override
    public long nanoseconds() {
        return System.nanoTime();
    }

    @Override
    public void sleep(long ms) {
        Time.SYSTEM.sleep(ms);
    }

    @Override
    public void waitObject(Object obj, Supplier<Boolean> condition, long deadlineMs) throws InterruptedException {
        synchronized (obj) {
            while (!condition.get()) {
                long left = deadlineMs - milliseconds();
                if (left <= 0) {
                    throw new TimeoutException("Condition not satisfied before deadline");
                }
                obj.wait(left);
            }
        }
    }
}
