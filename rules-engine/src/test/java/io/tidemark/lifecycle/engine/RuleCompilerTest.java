package io.tidemark.lifecycle.engine;

import static io.tidemark.lifecycle.engine.Fixtures.abortAfter;
import static io.tidemark.lifecycle.engine.Fixtures.disabled;
import static io.tidemark.lifecycle.engine.Fixtures.expireDate;
import static io.tidemark.lifecycle.engine.Fixtures.expireDays;
import static io.tidemark.lifecycle.engine.Fixtures.expiredMarker;
import static io.tidemark.lifecycle.engine.Fixtures.noncurrent;
import static io.tidemark.lifecycle.engine.Fixtures.rule;
import static io.tidemark.lifecycle.engine.Fixtures.rules;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RuleCompilerTest {

    private static final String NO_ID = "<Rule><Filter><Prefix>p/</Prefix></Filter><Status>Enabled</Status>"
            + "<Expiration><Days>30</Days></Expiration></Rule>";

    @Test
    void shouldGiveRulesWithoutIdADeterministicContentDerivedId() {
        RuleSet first = rules(NO_ID);
        RuleSet again = rules(rule("x", "<Prefix>q/</Prefix>", expireDays(1)), NO_ID);
        String id = first.rules().get(0).id();
        assertThat(id).startsWith(RuleCompiler.GENERATED_ID_PREFIX).isEqualTo(again.rules().get(1).id());
        assertThat(id).isEqualTo("tm-" + first.rules().get(0).hash().toHex());
    }

    @Test
    void shouldGiveAZeroSizeFloorItsOwnHashBecauseItFiltersOutEmptyObjects() {
        // Upstream's flat view writes an absent ObjectSizeGreaterThan as 0, but ">0" leaves out 0-byte objects:
        // an edit between the two must change the hash, or the replay app would not re-arm the rule's timers.
        RuleSet unset = rules(rule("a", "<Prefix>p/</Prefix>", expireDays(1)));
        RuleSet zero = rules(rule("a", "<And><Prefix>p/</Prefix><ObjectSizeGreaterThan>0</ObjectSizeGreaterThan></And>",
                expireDays(1)));
        RuleSet one = rules(rule("a", "<And><Prefix>p/</Prefix><ObjectSizeGreaterThan>1</ObjectSizeGreaterThan></And>",
                expireDays(1)));
        assertThat(zero.rules().get(0).hash()).isNotEqualTo(unset.rules().get(0).hash())
                .isNotEqualTo(one.rules().get(0).hash());
        assertThat(unset.rules().get(0).hash().toHex()).isEqualTo(
                RuleCompiler.canonical(unset.rules().get(0).source()).hash().toHex());
    }

    @Test
    void shouldTellApartIdenticalRulesWithoutIds() {
        RuleSet rs = rules(NO_ID, NO_ID.replace("Enabled", "Disabled"));
        assertThat(rs.rules().get(1).id()).isEqualTo(rs.rules().get(0).id() + "-2");
    }

    @Test
    void shouldListTheActionKindsEachRuleCanAskFor() {
        RuleSet rs = rules(rule("a", "", expireDays(1) + noncurrent(2) + abortAfter(3)),
                rule("b", "", expireDate("2030-01-01T00:00:00Z")),
                rule("c", "", expiredMarker()));
        assertThat(rs.rule("a").orElseThrow().kinds()).containsExactly(ActionKind.EXPIRATION_DAYS,
                ActionKind.EXPIRED_DELETE_MARKER, ActionKind.NONCURRENT_DAYS, ActionKind.ABORT_MPU);
        assertThat(rs.rule("b").orElseThrow().kinds()).containsExactly(ActionKind.EXPIRATION_DATE,
                ActionKind.EXPIRED_DELETE_MARKER);
        assertThat(rs.rule("c").orElseThrow().kinds()).containsExactly(ActionKind.EXPIRED_DELETE_MARKER);
    }

    @Test
    void shouldDescribeTimerDrivenActionsOfEnabledRulesOnly() {
        RuleSet rs = rules(rule("a", "", expireDays(2) + noncurrent(3)), disabled("b", "", abortAfter(4)),
                rule("c", "", expireDate("2030-01-01T00:00:00Z")));
        assertThat(rs.replayActions("bk")).containsExactly(
                new ReplayAction("bk", rs.rule("a").orElseThrow().hash(), ActionKind.EXPIRATION_DAYS, Duration.ofDays(2)),
                new ReplayAction("bk", rs.rule("a").orElseThrow().hash(), ActionKind.NONCURRENT_DAYS, Duration.ofDays(3)));
    }

    @Test
    void shouldKeepTheReplayHashWhenOnlyIdsChangeAndChangeItWhenDaysDo() {
        byte[] base = rules(rule("a", "<Prefix>logs/</Prefix>", expireDays(30))).replayContentHash("bk");
        byte[] renamed = rules(rule("renamed", "<Prefix>logs/</Prefix>", expireDays(30))).replayContentHash("bk");
        byte[] longer = rules(rule("a", "<Prefix>logs/</Prefix>", expireDays(31))).replayContentHash("bk");
        byte[] disabledRule = rules(disabled("a", "<Prefix>logs/</Prefix>", expireDays(30))).replayContentHash("bk");
        assertThat(renamed).isEqualTo(base);
        assertThat(longer).isNotEqualTo(base);
        assertThat(disabledRule).isEqualTo(new byte[32]);
    }

    @Test
    void shouldScaleReplayDelaysWithTheDayLength() {
        RuleSet rs = rules(LifecycleCalendar.of(DuePolicy.AWS, Duration.ofSeconds(10)), rule("a", "", expireDays(3)));
        assertThat(rs.replayActions("bk").get(0).ttl()).isEqualTo(Duration.ofSeconds(30));
    }
}
