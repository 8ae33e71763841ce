package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.messages.ObjectTask;
import io.tidemark.topics.JsonSerde;
import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

class TimerCodecTest {

    private final TimerCodec codec = new TimerCodec();

    private ReplayTimer roundTrip(ReplayTimer timer) {
        return codec.deserializer().deserialize("t", codec.serializer().serialize("t", timer));
    }

    @Test
    void shouldRoundTripEveryFieldOfACurrentVersionTimer() {
        ReplayTimer timer = new ReplayTimer("bucket/ключ/🙂#EXPIRATION_DAYS", "bucket", "ключ/🙂", "ключ/🙂",
                "3fa8-01", "EXPIRATION_DAYS", "rule one", "0011223344556677",
                Instant.parse("2026-11-24T10:15:30.123456789Z"),
                new ObjectTask.ExpectedIdentity(1_764_000_000_123_456_789L, 5L << 40, "7,01637037d6", "a1b2c3d4"),
                5L << 40, Map.of("team", "data", "empty", ""), Instant.parse("2026-11-23T10:15:30.5Z"),
                Instant.parse("2026-11-23T11:00:00Z"), Instant.MAX, 1_764_000_000_123_456_789L);

        assertThat(roundTrip(timer)).isEqualTo(timer);
    }

    @Test
    void shouldKeepNullsApartFromEmptyStringsAndAbsentInstants() {
        ReplayTimer timer = new ReplayTimer("b/.uploads/u1#ABORT_MPU", "b", "k", ".uploads/u1", "", "ABORT_MPU", null,
                "", Instant.EPOCH, null, 0, Map.of(), Instant.ofEpochSecond(-86_400, 7), null, null, 0);

        ReplayTimer back = roundTrip(timer);

        assertThat(back).isEqualTo(timer);
        assertThat(back.ruleId()).isNull();
        assertThat(back.versionId()).isEmpty();
        assertThat(back.identity()).isNull();
    }

    /** Changelogs written before the binary format hold JSON; an upgraded instance must still fire those timers. */
    @Test
    void shouldReadTimersThatEarlierVersionsWroteAsJson() {
        ReplayTimer timer = new ReplayTimer("b/k#NONCURRENT_DAYS", "b", "k", "k", "v1", "NONCURRENT_DAYS", "r", "ff",
                Instant.parse("2026-12-01T00:00:00Z"), new ObjectTask.ExpectedIdentity(5, 6, "1,ab", "00"), 6,
                Map.of("a", "b"), Instant.parse("2026-11-01T00:00:00Z"), Instant.parse("2026-11-02T00:00:00Z"), null, 9);
        byte[] json = new JsonSerde<>(ReplayTimer.class).serializer().serialize("t", timer);

        assertThat(codec.deserializer().deserialize("t", json)).isEqualTo(timer);
    }

    @Test
    void shouldBeSmallerThanTheJsonItReplaces() {
        ReplayTimer timer = new ReplayTimer("bench/o000000001#EXPIRATION_DAYS", "bench", "o000000001", "o000000001", "",
                "EXPIRATION_DAYS", "bench", "0011223344556677", Instant.parse("2026-11-25T10:15:30.123Z"),
                new ObjectTask.ExpectedIdentity(1_764_000_000_123_456_789L, 1024, "7,1a0b0c0d", "9f86d081884c7d65"),
                1024, Map.of(), Instant.parse("2026-11-24T10:15:30.123Z"), null, null, 1_764_000_000_123_456_789L);

        int binary = codec.serializer().serialize("t", timer).length;
        int json = new JsonSerde<>(ReplayTimer.class).serializer().serialize("t", timer).length;

        assertThat(binary).isLessThan(json / 2);
    }

    @Test
    void shouldRejectTruncatedOrUnknownTimersWithASerializationException() {
        byte[] bytes = codec.serializer().serialize("t", new ReplayTimer("b/k#EXPIRATION_DAYS", "b", "k", "k", "",
                "EXPIRATION_DAYS", "r", "h", Instant.EPOCH, null, 1, Map.of(), Instant.EPOCH, null, null, 1));
        byte[] truncated = Arrays.copyOf(bytes, bytes.length - 3);
        byte[] unknown = bytes.clone();
        unknown[0] = 9;

        assertThatThrownBy(() -> codec.deserializer().deserialize("t", truncated))
                .isInstanceOf(SerializationException.class).hasMessageContaining("cannot be decoded");
        assertThatThrownBy(() -> codec.deserializer().deserialize("t", unknown))
                .isInstanceOf(SerializationException.class).hasMessageContaining("unknown timer format 9");
    }
}
