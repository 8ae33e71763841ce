package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.ObjectTask;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A rule is known by its content, not its ID (architecture.md, invariant 8): tools that regenerate rule IDs on every
 * PUT (same content, new ID, maybe reordered) change nothing the populator sees — the hashes are the same, so no walk
 * is asked for — and must not change what a task waiting in {@code object-tasks} is allowed to do either (issue 43,
 * item 2).
 */
class RuleRecheckTest {

    private static final RuleReader READER = new RuleReader(ValidationMode.AWS,
            LifecycleCalendar.of(DuePolicy.EXACT, Duration.ofDays(1)));
    private static final Instant MODIFIED = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant DUE = MODIFIED.plus(Duration.ofDays(30));

    private static String rule(String id, String status, String prefix, int days) {
        return "<Rule><ID>" + id + "</ID><Filter><Prefix>" + prefix + "</Prefix></Filter><Status>" + status
                + "</Status><Expiration><Days>" + days + "</Days></Expiration></Rule>";
    }

    private static String configuration(String... rules) {
        return "<LifecycleConfiguration>" + String.join("", rules) + "</LifecycleConfiguration>";
    }

    private static final String DECIDED_UNDER = configuration(rule("generated-1", "Enabled", "logs/", 30));

    private static RuleSet rules(String xml) {
        try {
            return READER.read(xml);
        } catch (LifecycleConfigException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** An expiration of logs/a decided under {@link #DECIDED_UNDER}'s only rule. */
    private static ObjectTask task() {
        String hash = rules(DECIDED_UNDER).rule("generated-1").orElseThrow().hash().toHex();
        return new ObjectTask("action-1", "expire", ActionKind.EXPIRATION_DAYS.name(),
                new ObjectTask.Target("b", "logs/a", ""),
                new ObjectTask.Details(new ObjectTask.ExpectedIdentity(1, 10, "3,01", ""), "generated-1", hash, DUE,
                        "replay", null, MODIFIED, null));
    }

    private static RuleRecheck.Result check(String xmlNow, Instant at) {
        CurrentRules.Now now = new CurrentRules.Now(true, Optional.of(rules(xmlNow)), BucketVersioning.OFF, null);
        return RuleRecheck.check(task(), ActionKind.EXPIRATION_DAYS, now, at);
    }

    @Test
    void shouldAllowATaskWhoseRuleWasRenamedWithTheSameContent() {
        RuleRecheck.Result result = check(configuration(rule("generated-2", "Enabled", "logs/", 30)), DUE);

        assertThat(result.stale()).isNull();
        assertThat(result.allowed()).isTrue();
        assertThat(result.rule().id()).isEqualTo("generated-2");
        assertThat(result.note()).contains("generated-2").contains("generated-1");
    }

    @Test
    void shouldAllowATaskWhoseRuleWasRenamedAndMovedAmongOtherRules() {
        String now = configuration(rule("generated-7", "Enabled", "tmp/", 1),
                rule("generated-8", "Enabled", "logs/", 7), rule("generated-9", "Enabled", "logs/", 30));

        RuleRecheck.Result result = check(now, DUE);

        assertThat(result.stale()).isNull();
        assertThat(result.allowed()).isTrue();
        assertThat(result.rule().id()).as("the rule with the task's content, not the first that matches the key")
                .isEqualTo("generated-9");
    }

    @Test
    void shouldHoldATaskUnderARenamedRuleUntilItIsDueAsUnderTheOldOne() {
        RuleRecheck.Result result = check(configuration(rule("generated-2", "Enabled", "logs/", 30)),
                DUE.minusSeconds(1));

        assertThat(result.stale()).isNull();
        assertThat(result.notDueBefore()).isEqualTo(DUE);
    }

    @Test
    void shouldDropATaskWhoseRuleWasRenamedAndChanged() {
        RuleRecheck.Result result = check(configuration(rule("generated-2", "Enabled", "logs/", 60)), DUE);

        assertThat(result.stale()).contains("\"generated-1\" is no longer in the configuration")
                .contains("no enabled rule has its content");
    }

    @Test
    void shouldDropATaskWhoseRuleWasRenamedToADisabledCopy() {
        RuleRecheck.Result result = check(configuration(rule("generated-2", "Disabled", "logs/", 30)), DUE);

        assertThat(result.stale()).contains("\"generated-1\" is no longer in the configuration")
                .contains("no enabled rule has its content");
    }

    @Test
    void shouldDropATaskWhoseRuleKeptItsIdButChangedEvenIfAnotherRuleHasTheOldContentDisabled() {
        String now = configuration(rule("generated-1", "Enabled", "logs/", 60),
                rule("archive", "Disabled", "logs/", 30));

        RuleRecheck.Result result = check(now, DUE);

        assertThat(result.stale()).contains("\"generated-1\" was changed");
    }

    @Test
    void shouldAllowATaskUnderTheRuleItNamesWithoutANote() {
        RuleRecheck.Result result = check(DECIDED_UNDER, DUE);

        assertThat(result.allowed()).isTrue();
        assertThat(result.rule().id()).isEqualTo("generated-1");
        assertThat(result.note()).isNull();
    }
}
