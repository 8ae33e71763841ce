package io.tidemark.emulator.s3;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.MutableClock;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class VersionIdsTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final VersionIds ids = new VersionIds(clock);

    @Test
    void shouldOrderVersionIdsNewestFirstWithNullLast() {
        String older = ids.next();
        clock.advance(Duration.ofSeconds(1));
        String newer = ids.next();
        List<String> sorted = new ArrayList<>(List.of(older, S3Layout.NULL_VERSION_ID, newer));
        sorted.sort(VersionIds::compare);
        assertThat(sorted).containsExactly(newer, older, S3Layout.NULL_VERSION_ID);
        assertThat(newer).hasSize(32).matches("[0-9a-f]+");
    }

    @Test
    void shouldOrderVersionIdsNewestFirstEvenWhenTheClockStandsStillOrGoesBack() {
        String first = ids.next();
        String second = ids.next();
        clock.advance(Duration.ofSeconds(-5));
        String third = ids.next();
        assertThat(VersionIds.compare(second, first)).isNegative();
        assertThat(VersionIds.compare(third, second)).isNegative();
    }

    @Test
    void shouldKeepStampsStrictlyIncreasingAndAtLeastTheClock() {
        long first = ids.nextNanos();
        assertThat(first).isEqualTo(clock.instant().getEpochSecond() * 1_000_000_000L);
        assertThat(ids.nextNanos()).isEqualTo(first + 1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(ids.nextNanos()).isEqualTo(first + 1_000_000_000L);
    }

    @Test
    void shouldTakeAVersionFilesIdFromItsStampElseFromItsName() {
        Entry stamped = Entry.newBuilder().setName("v_abc")
                .putExtended(S3Layout.VERSION_ID, ByteString.copyFromUtf8(S3Layout.NULL_VERSION_ID)).build();
        assertThat(VersionIds.of(stamped)).isEqualTo(S3Layout.NULL_VERSION_ID);
        assertThat(VersionIds.of(Entry.newBuilder().setName("v_abc").build())).isEqualTo("abc");
    }
}
