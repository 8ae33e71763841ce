package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.messages.ObjectTask;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ActionIdsTest {

    private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");
    /** What the id of {@code timer(42)} has been since action ids were introduced. */
    private static final String PINNED = "replay-52ea858515e2f945bf0b733d4dbca264";

    private static ReplayTimer timer(long size) {
        return new ReplayTimer("b/k#EXPIRATION_DAYS", "b", "k", "k", "", "EXPIRATION_DAYS", "r", "h", T0,
                new ObjectTask.ExpectedIdentity(T0.toEpochMilli() * 1_000_000L, size, "3,01ab", ""), size, Map.of(),
                T0, null, null, 1);
    }

    /**
     * A timer fired again after a crash, by this version or the one before it, must carry the id it carried the first
     * time: the id is pinned, not only compared with itself.
     */
    @Test
    void shouldGiveATimerTheSameIdEveryTimeItFiresAndAcrossVersions() {
        assertThat(ActionIds.of(timer(42))).isEqualTo(ActionIds.of(timer(42))).isEqualTo(PINNED);
    }

    @Test
    void shouldGiveATimerArmedOnAnotherEntryAnotherId() {
        assertThat(ActionIds.of(timer(43))).isNotEqualTo(ActionIds.of(timer(42)));
    }
}
