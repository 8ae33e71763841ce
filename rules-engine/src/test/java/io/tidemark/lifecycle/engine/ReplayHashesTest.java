package io.tidemark.lifecycle.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReplayHashesTest {

    private static final RuleHash LOGS_30 =
            new CanonicalRule("logs/", Map.of(), 0, 0, 30, null, false, 0, 0, 0).hash();
    private static final RuleHash ALL_1 = new CanonicalRule("", Map.of(), 0, 0, 1, null, false, 0, 0, 0).hash();

    private static List<ReplayAction> sample() {
        return List.of(
                new ReplayAction("photos", LOGS_30, ActionKind.EXPIRATION_DAYS, Duration.ofDays(30)),
                new ReplayAction("photos", ALL_1, ActionKind.EXPIRATION_DAYS, Duration.ofDays(1)),
                new ReplayAction("archive", LOGS_30, ActionKind.EXPIRATION_DAYS, Duration.ofDays(30)));
    }

    @Test
    void shouldMatchIndependentGoldenForReplayContentHash() {
        assertThat(HexFormat.of().formatHex(ReplayHashes.replayContentHash(sample())))
                .isEqualTo("a5204914a4c0f6f4feba48b6b3a184f7e3be68bedec5173eb71b47d25772eaa0");
    }

    @Test
    void shouldMatchIndependentGoldenForPromotedHash() {
        assertThat(HexFormat.of().formatHex(ReplayHashes.promotedHash(sample(), Duration.ofDays(7))))
                .isEqualTo("5201e403162ae79c76bb0c5883b870a4fa07f50626b36d6b20d184aaba7dbd2a");
    }

    @Test
    void shouldNotDependOnTheOrderActionsAreGivenIn() {
        List<ReplayAction> reversed = new ArrayList<>(sample());
        Collections.reverse(reversed);
        assertThat(ReplayHashes.replayContentHash(reversed)).isEqualTo(ReplayHashes.replayContentHash(sample()));
    }

    @Test
    void shouldBeAllZeroWhenThereIsNothingToReplay() {
        List<ReplayAction> walkerOnly = List.of(
                new ReplayAction("b", ALL_1, ActionKind.EXPIRATION_DATE, Duration.ZERO),
                new ReplayAction("b", ALL_1, ActionKind.EXPIRED_DELETE_MARKER, Duration.ZERO));
        assertThat(ReplayHashes.replayContentHash(walkerOnly)).isEqualTo(new byte[32]);
        assertThat(ReplayHashes.promotedHash(sample(), Duration.ofDays(365))).isEqualTo(new byte[32]);
    }

    @Test
    void shouldChangeWhenADelayChanges() {
        List<ReplayAction> longer = List.of(
                new ReplayAction("photos", LOGS_30, ActionKind.EXPIRATION_DAYS, Duration.ofDays(31)),
                new ReplayAction("photos", ALL_1, ActionKind.EXPIRATION_DAYS, Duration.ofDays(1)),
                new ReplayAction("archive", LOGS_30, ActionKind.EXPIRATION_DAYS, Duration.ofDays(30)));
        assertThat(ReplayHashes.replayContentHash(longer)).isNotEqualTo(ReplayHashes.replayContentHash(sample()));
    }

    @Test
    void shouldKeepSeaweedActionKindNumbers() {
        assertThat(ActionKind.values()).extracting(ActionKind::number).containsExactly(0, 1, 2, 3, 4, 5, 6);
        assertThat(ActionKind.forNumber(6)).isEqualTo(ActionKind.EXPIRED_DELETE_MARKER);
        assertThat(ActionKind.NONCURRENT_DAYS.metricLabel()).isEqualTo("noncurrent_days");
        assertThat(ActionKind.EXPIRATION_DATE.replayed()).isFalse();
        assertThat(ActionKind.EXPIRATION_DATE.walked()).isTrue();
        assertThat(ActionKind.EXPIRATION_DAYS.timerDriven()).isTrue();
    }
}
