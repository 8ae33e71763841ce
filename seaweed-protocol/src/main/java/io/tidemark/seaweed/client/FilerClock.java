package io.tidemark.seaweed.client;

import io.grpc.Status;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.pb.FilerProto.PingResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The filer's time, as this process can know it: what a due instant computed from a filer's stamps (an entry's mtime,
 * an upload's creation) is compared with, so that a host whose clock runs ahead never finds anything due early
 * (architecture.md, invariant 7: one comparison, one clock).
 *
 * <p>A reading is one {@code Ping}: the filer's stamps, taken while it handled the call, lie somewhere within the
 * call's round trip, so the filer's time at the reading is known to within half of it. From a reading on, the filer's
 * time is carried forward on this process's monotonic clock, which no NTP step or hand-set date moves; a reading is
 * taken again once it is older than {@code maxAge}, to follow the filer's own clock. The time given is the earliest the
 * filer's clock can show: its estimate less the reading's uncertainty.
 */
public final class FilerClock {

    /**
     * @param filerNanos  the filer's time at the reading's midpoint, epoch nanoseconds
     * @param takenNanos  this process's monotonic time at the same midpoint
     * @param uncertainty how far the filer's time at the midpoint may be off (half the round trip)
     * @param skew        this host's clock less the filer's at the reading: positive when this host is ahead
     */
    public record Reading(long filerNanos, long takenNanos, Duration uncertainty, Duration skew) {
    }

    /** How long the services carry a reading forward: long enough to cost nothing, short enough to follow the filer. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(FilerClock.class);
    /** A skew worth a warning: more than NTP leaves between hosts that are kept in step. */
    private static final Duration NOTABLE_SKEW = Duration.ofSeconds(1);

    private final Supplier<CompletableFuture<PingResponse>> ping;
    private final Clock local;
    private final LongSupplier nanoTime;
    private final long maxAgeNanos;
    private final AtomicReference<Reading> last = new AtomicReference<>();
    private final AtomicReference<CompletableFuture<Reading>> underWay = new AtomicReference<>();
    private volatile boolean fellBack;

    /**
     * @param ping     the filer's {@code Ping} ({@link FilerClient#pingAsync})
     * @param local    this host's clock, only to report the skew
     * @param nanoTime this process's monotonic clock
     * @param maxAge   how long a reading is carried forward before another is taken
     */
    public FilerClock(Supplier<CompletableFuture<PingResponse>> ping, Clock local, LongSupplier nanoTime,
                      Duration maxAge) {
        this.ping = ping;
        this.local = local;
        this.nanoTime = nanoTime;
        this.maxAgeNanos = maxAge.toNanos();
    }

    /** The clock of the filer {@code filer} talks to, read with its {@code Ping}, carried on {@link System#nanoTime}. */
    public static FilerClock of(FilerClient filer, Clock local, Duration maxAge) {
        return new FilerClock(filer::pingAsync, local, System::nanoTime, maxAge);
    }

    /**
     * The earliest the filer's clock can show now. Carried forward from the last reading while it is younger than the
     * maximum age; otherwise from a new one, which concurrent callers share. When the {@code Ping} fails, an old
     * reading carried forward on the monotonic clock is still a bound; with none, the call fails with the
     * {@code Ping}'s error — unless the filer cannot tell its time at all (no {@code Ping}, as before SeaweedFS 3.x, or
     * an answer without stamps): then this host's clock is all there is, said once in an error log line, and the
     * filer is not asked again.
     */
    public CompletableFuture<Instant> now() {
        if (fellBack) {
            // Said once, and not asked again: a filer's version does not change under a running process.
            return CompletableFuture.completedFuture(local.instant());
        }
        Reading known = last.get();
        if (known != null && nanoTime.getAsLong() - known.takenNanos() < maxAgeNanos) {
            return CompletableFuture.completedFuture(earliest(known));
        }
        return read().handle((fresh, error) -> {
            if (error == null) {
                return earliest(fresh);
            }
            Reading old = last.get();
            if (old != null) {
                return earliest(old);
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause()
                    : error;
            if (cause instanceof SeaweedCallException refused && refused.kind() == FailureKind.PERMANENT) {
                if (!fellBack) {
                    fellBack = true;
                    log.error("the filer cannot tell its time ({}): due times are judged on this host's clock, which "
                            + "must then be kept in step with the filer's", refused.getMessage());
                }
                return local.instant();
            }
            throw cause instanceof RuntimeException r ? r : new IllegalStateException(cause);
        });
    }

    /**
     * A clock that reads the last reading carried forward, without waiting — this host's clock until a first reading
     * is taken: for what cannot wait for a {@code Ping} (Kafka Streams' punctuations). Its owner calls {@link #now}
     * on a schedule to keep the reading fresh.
     */
    public Clock asClock() {
        FilerClock filer = this;
        return new Clock() {
            @Override
            public Instant instant() {
                Reading known = last.get();
                return known == null ? local.instant() : filer.earliest(known);
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                throw new UnsupportedOperationException("a UTC clock");
            }
        };
    }

    /**
     * {@link #now} for a caller that may block, such as the populator's start: fails with the {@code Ping}'s
     * {@link SeaweedCallException} itself.
     */
    public Instant nowBlocking() {
        try {
            return now().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    /**
     * Whether the filer has said it cannot tell its time (no {@code Ping}, or an answer without stamps): this host's
     * clock stands in for it from then on.
     */
    public boolean cannotTellTime() {
        return fellBack;
    }

    /** The last reading, if any was taken. */
    public Optional<Reading> lastReading() {
        return Optional.ofNullable(last.get());
    }

    private Instant earliest(Reading reading) {
        long filerNow = reading.filerNanos() + (nanoTime.getAsLong() - reading.takenNanos())
                - reading.uncertainty().toNanos();
        return EpochNanos.toInstant(filerNow);
    }

    /** Once when a notable skew appears or changes by a second or more; once when it is gone. */
    private static void warnOfSkew(Reading before, Reading now) {
        boolean notable = now.skew().abs().compareTo(NOTABLE_SKEW) >= 0;
        boolean was = before != null && before.skew().abs().compareTo(NOTABLE_SKEW) >= 0;
        if (notable && (!was || before.skew().minus(now.skew()).abs().compareTo(NOTABLE_SKEW) >= 0)) {
            log.warn("this host's clock is {} ms {} the filer's (Ping uncertainty {} ms); due times are judged on the "
                    + "filer's clock", now.skew().abs().toMillis(), now.skew().isNegative() ? "behind" : "ahead of",
                    now.uncertainty().toMillis());
        } else if (!notable && was) {
            log.info("this host's clock is within {} ms of the filer's again", now.skew().abs().toMillis());
        }
    }

    private CompletableFuture<Reading> read() {
        CompletableFuture<Reading> mine = new CompletableFuture<>();
        CompletableFuture<Reading> current = underWay.compareAndExchange(null, mine);
        if (current != null) {
            return current;
        }
        long sent = nanoTime.getAsLong();
        long sentWall = EpochNanos.of(local.instant());
        CompletableFuture<PingResponse> answer;
        try {
            answer = ping.get();
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((response, error) -> {
            if (error == null && (response.getStartTimeNs() <= 0 || response.getStopTimeNs() < response.getStartTimeNs())) {
                error = new SeaweedCallException("Ping", Status.UNIMPLEMENTED.withDescription("the answer carries no "
                        + "time (start " + response.getStartTimeNs() + ", stop " + response.getStopTimeNs() + ")")
                        .asRuntimeException());
            }
            if (error != null) {
                underWay.set(null);
                mine.completeExceptionally(error);
                return;
            }
            long received = nanoTime.getAsLong();
            long halfTrip = (received - sent) / 2;
            // The filer stamps the start and the end of its handling; with no target to ping they are nanoseconds apart.
            long filerMid = response.getStartTimeNs() / 2 + response.getStopTimeNs() / 2
                    + (response.getStartTimeNs() % 2 + response.getStopTimeNs() % 2) / 2;
            Reading reading = new Reading(filerMid, sent + halfTrip, Duration.ofNanos(halfTrip),
                    Duration.ofNanos(sentWall + halfTrip - filerMid));
            // The reading is kept before the next caller may start another, so a newer one is never overwritten.
            Reading before = last.getAndSet(reading);
            underWay.set(null);
            warnOfSkew(before, reading);
            mine.complete(reading);
        });
        return mine;
    }
}
