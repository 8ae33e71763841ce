package io.tidemark.cli.lifecycle;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.bucketprocessor.EntryLister;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The what-if's small parts on their own: the horizon's days, the listing's pace, the progress line. */
class WhatIfPartsTest {

    private static final Instant NOW = Instant.parse("2026-03-10T12:00:00Z");

    @Test
    void shouldPutWhatIsDueAtOrBeforeNowInNowAndEachLaterInstantInTheDayItEnds() {
        Horizon horizon = new Horizon(NOW, Duration.ofHours(24), 3);

        assertThat(horizon.slot(NOW.minusSeconds(3600 * 24 * 400))).isEqualTo(Horizon.NOW);
        assertThat(horizon.slot(NOW)).isEqualTo(Horizon.NOW);
        assertThat(horizon.slot(NOW.plusNanos(1))).isEqualTo(1);
        assertThat(horizon.slot(NOW.plus(Duration.ofDays(1)))).isEqualTo(1);
        assertThat(horizon.slot(NOW.plus(Duration.ofDays(1)).plusNanos(1))).isEqualTo(2);
        assertThat(horizon.slot(NOW.plus(Duration.ofDays(3)))).isEqualTo(3);
        assertThat(horizon.slot(NOW.plus(Duration.ofDays(3)).plusNanos(1))).isEqualTo(Horizon.BEYOND);
    }

    @Test
    void shouldUseTheLifecycleDayLengthForTheDays() {
        Horizon tenSecondDays = new Horizon(NOW, Duration.ofSeconds(10), 30);

        assertThat(tenSecondDays.end()).isEqualTo(NOW.plusSeconds(300));
        assertThat(tenSecondDays.slot(NOW.plusSeconds(25))).isEqualTo(3);
    }

    @Test
    void shouldHoldTheListingToTheEntriesPerSecondGivenOnAverage() {
        AtomicLong nanos = new AtomicLong();
        List<Long> waits = new ArrayList<>();
        EntryLister thousandAtATime = new EntryLister() {
            @Override
            public List<Entry> list(String directory, String prefix, String startAfter, int limit) {
                return Collections.nCopies(1000, Entry.getDefaultInstance());
            }

            @Override
            public Optional<Entry> lookup(String directory, String name) {
                return Optional.empty();
            }
        };
        ListingPace pace = new ListingPace(thousandAtATime, 2000, nanos::get, wait -> {
            waits.add(wait);
            nanos.addAndGet(wait);
        });

        for (int i = 0; i < 5; i++) {
            pace.list("/d", "", "", 1000);
        }

        // 5 000 entries at 2 000/s: the first call goes at once, each later one half a second after the one before.
        assertThat(waits).containsExactly(500_000_000L, 500_000_000L, 500_000_000L, 500_000_000L);
        assertThat(nanos.get()).isEqualTo(TimeUnit.SECONDS.toNanos(2));
    }

    @Test
    void shouldNotSaveUpUnusedTimeForABurst() {
        AtomicLong nanos = new AtomicLong();
        List<Long> waits = new ArrayList<>();
        EntryLister one = new EntryLister() {
            @Override
            public List<Entry> list(String directory, String prefix, String startAfter, int limit) {
                return List.of(Entry.getDefaultInstance());
            }

            @Override
            public Optional<Entry> lookup(String directory, String name) {
                return Optional.empty();
            }
        };
        ListingPace pace = new ListingPace(one, 1, nanos::get, wait -> {
            waits.add(wait);
            nanos.addAndGet(wait);
        });

        pace.list("/d", "", "", 1);
        nanos.addAndGet(TimeUnit.SECONDS.toNanos(10));
        pace.list("/d", "", "", 1);
        pace.list("/d", "", "", 1);

        assertThat(waits).containsExactly(TimeUnit.SECONDS.toNanos(1));
    }

    @Test
    void shouldGiveTheRateAndSayThereIsNoEtaWithoutAnExpectedTotal() {
        ProgressLine line = new ProgressLine(new PrintWriter(new StringWriter()), "photos", OptionalLong.empty(),
                5000, () -> 0L);

        assertThat(line.line(40_000, "2026/04/x.jpg", TimeUnit.SECONDS.toNanos(2)))
                .isEqualTo("what-if photos: 40000 entries in 2 s, 20000 entries/s, at 2026/04/x.jpg; no ETA (the "
                        + "filer does not tell a bucket's size; --expected-entries N gives one)");
    }

    @Test
    void shouldEstimateTheEtaFromTheExpectedEntriesAtTheAverageRate() {
        ProgressLine line = new ProgressLine(new PrintWriter(new StringWriter()), "photos",
                OptionalLong.of(1_000_000), 5000, () -> 0L);

        assertThat(line.line(250_000, "m", TimeUnit.SECONDS.toNanos(10)))
                .endsWith("ETA 30s (25% of 1000000 expected)");
        assertThat(line.line(1_200_000, "z", TimeUnit.SECONDS.toNanos(10)))
                .endsWith("past the 1000000 entries expected, ETA unknown");
    }
}
