package io.tidemark.seaweed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.pb.FilerProto.PingResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FilerClockTest {

    private static final Instant FILER_AT_READING = Instant.parse("2026-01-01T00:00:00Z");
    private static final Duration MAX_AGE = Duration.ofSeconds(30);

    /** This process's monotonic clock, moved by hand. */
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    /** Pings not answered yet, answered by the test. */
    private final List<CompletableFuture<PingResponse>> pings = new ArrayList<>();

    private FilerClock clock(Instant localNow) {
        return new FilerClock(() -> {
            CompletableFuture<PingResponse> ping = new CompletableFuture<>();
            pings.add(ping);
            return ping;
        }, Clock.fixed(localNow, ZoneOffset.UTC), nanos::get, MAX_AGE);
    }

    /** The filer answers {@code roundTrip} after the ping was sent, its stamps at the round trip's middle. */
    private void answer(Instant filerTime, Duration roundTrip) {
        nanos.addAndGet(roundTrip.toNanos());
        long stamp = EpochNanos.of(filerTime);
        pings.remove(0).complete(PingResponse.newBuilder().setStartTimeNs(stamp).setRemoteTimeNs(stamp)
                .setStopTimeNs(stamp).build());
    }

    @Test
    void shouldGiveTheFilersTimeLessTheReadingsUncertaintyWhateverThisHostsClockSays() {
        FilerClock filer = clock(FILER_AT_READING.plus(Duration.ofDays(3)));
        CompletableFuture<Instant> now = filer.now();
        answer(FILER_AT_READING, Duration.ofMillis(20));

        // Taken as at the round trip's middle, though they may lie anywhere within it; it is now its end, 10 ms later,
        // and the earliest the filer can show is 10 ms less than that.
        assertThat(now.join()).isEqualTo(FILER_AT_READING);
        assertThat(filer.lastReading().orElseThrow().skew()).isEqualTo(Duration.ofDays(3).plusMillis(10));
    }

    @Test
    void shouldCarryAReadingForwardOnTheMonotonicClockUntilItIsTooOld() {
        FilerClock filer = clock(FILER_AT_READING);
        CompletableFuture<Instant> first = filer.now();
        answer(FILER_AT_READING, Duration.ZERO);
        first.join();

        nanos.addAndGet(Duration.ofSeconds(29).toNanos());
        assertThat(filer.now().join()).isEqualTo(FILER_AT_READING.plusSeconds(29));
        assertThat(pings).isEmpty();

        nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        CompletableFuture<Instant> later = filer.now();
        assertThat(pings).as("a new reading once the last is older than its maximum age").hasSize(1);
        answer(FILER_AT_READING.plusSeconds(31), Duration.ZERO);
        assertThat(later.join()).isEqualTo(FILER_AT_READING.plusSeconds(31));
    }

    @Test
    void shouldShareOneReadingAmongConcurrentCallers() {
        FilerClock filer = clock(FILER_AT_READING);
        CompletableFuture<Instant> one = filer.now();
        CompletableFuture<Instant> two = filer.now();
        assertThat(pings).hasSize(1);
        answer(FILER_AT_READING, Duration.ZERO);
        assertThat(one.join()).isEqualTo(two.join());
    }

    @Test
    void shouldFailWithThePingsErrorOnlyWhenNoReadingWasEverTaken() {
        FilerClock filer = clock(FILER_AT_READING);
        CompletableFuture<Instant> never = filer.now();
        pings.remove(0).completeExceptionally(new SeaweedCallException("Ping",
                Status.UNAVAILABLE.asRuntimeException()));
        assertThatThrownBy(never::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(SeaweedCallException.class);

        CompletableFuture<Instant> read = filer.now();
        answer(FILER_AT_READING, Duration.ZERO);
        read.join();
        nanos.addAndGet(Duration.ofMinutes(5).toNanos());
        CompletableFuture<Instant> carried = filer.now();
        pings.remove(0).completeExceptionally(new SeaweedCallException("Ping",
                Status.UNAVAILABLE.asRuntimeException()));
        assertThat(carried.join()).as("an old reading carried forward is still a bound")
                .isEqualTo(FILER_AT_READING.plus(Duration.ofMinutes(5)));
    }

    @Test
    void shouldFallBackToThisHostsClockOnlyWhenTheFilerCannotTellItsTime() {
        Instant local = FILER_AT_READING.plusSeconds(5);
        FilerClock noPing = clock(local);
        CompletableFuture<Instant> unimplemented = noPing.now();
        pings.remove(0).completeExceptionally(new SeaweedCallException("Ping",
                Status.UNIMPLEMENTED.asRuntimeException()));
        assertThat(unimplemented.join()).isEqualTo(local);

        FilerClock noStamps = clock(local);
        CompletableFuture<Instant> zero = noStamps.now();
        pings.remove(0).complete(PingResponse.getDefaultInstance());
        assertThat(zero.join()).as("an answer without stamps is no time of 1970").isEqualTo(local);
        assertThat(noStamps.lastReading()).isEmpty();
    }

    @Test
    void shouldOfferAClockThatReadsTheLastReadingWithoutWaiting() {
        FilerClock filer = clock(FILER_AT_READING.plus(Duration.ofDays(3)));
        assertThat(filer.asClock().instant()).as("this host's until a first reading")
                .isEqualTo(FILER_AT_READING.plus(Duration.ofDays(3)));

        CompletableFuture<Instant> read = filer.now();
        answer(FILER_AT_READING, Duration.ZERO);
        read.join();
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        assertThat(filer.asClock().instant()).isEqualTo(FILER_AT_READING.plusSeconds(2));
        assertThat(pings).isEmpty();
    }
}
