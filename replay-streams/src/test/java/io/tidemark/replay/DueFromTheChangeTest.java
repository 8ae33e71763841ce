package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.replay.TimerPlanner.Arm;
import io.tidemark.replay.TimerPlanner.BucketRules;
import io.tidemark.replay.TimerPlanner.Change;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 48: a change that makes an object match a rule long after the rule's due instant — a tag put on an old object
 * under a tag-filtered rule — makes it due from the change, not from the past: the task's due instant is what its
 * lateness is counted from, and the engine is not late for what it could not have known. It fires at once either way.
 */
class DueFromTheChangeTest {

    private static final Duration DAY = Duration.ofSeconds(10);
    private static final Instant WRITTEN = Instant.parse("2026-11-28T16:00:00Z");

    private final TimerPlanner planner = new TimerPlanner();

    private static Optional<BucketRules> rules(BucketVersioning versioning) throws Exception {
        RuleReader reader = new RuleReader(ValidationMode.SEAWEEDFS, LifecycleCalendar.of(DuePolicy.EXACT, DAY));
        return Optional.of(new BucketRules(reader.read("<LifecycleConfiguration><Rule><ID>tagged</ID>"
                + "<Status>Enabled</Status><Filter><Tag><Key>expire</Key><Value>yes</Value></Tag></Filter>"
                + "<Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>"), versioning));
    }

    private static Instant armedDue(List<Change> changes) {
        return changes.stream().filter(c -> c instanceof Arm).map(c -> ((Arm) c).timer().dueAt()).findFirst()
                .orElseThrow(() -> new AssertionError("no timer armed: " + changes));
    }

    @Test
    void shouldTimeAnObjectTaggedIntoARuleLongAfterItsDueInstantFromTheTag() throws Exception {
        Entry untagged = Events.object("k", WRITTEN, 10, Map.of());
        Entry tagged = Events.tagged("k", WRITTEN, 10, Map.of("expire", "yes"));
        Instant taggedAt = WRITTEN.plus(Duration.ofDays(30));
        List<Change> changes = planner.plan(Events.record(EventKind.TAGS_CHANGED, "b", "k", "/buckets/b", untagged,
                tagged, taggedAt), rules(BucketVersioning.OFF), id -> Optional.empty(), taggedAt);
        assertThat(armedDue(changes)).isEqualTo(taggedAt);
    }

    @Test
    void shouldKeepTheRulesDueInstantWhenItIsLaterThanTheTag() throws Exception {
        Entry untagged = Events.object("k", WRITTEN, 10, Map.of());
        Entry tagged = Events.tagged("k", WRITTEN, 10, Map.of("expire", "yes"));
        Instant taggedAt = WRITTEN.plusSeconds(2);
        List<Change> changes = planner.plan(Events.record(EventKind.TAGS_CHANGED, "b", "k", "/buckets/b", untagged,
                tagged, taggedAt), rules(BucketVersioning.OFF), id -> Optional.empty(), taggedAt);
        assertThat(armedDue(changes)).isEqualTo(WRITTEN.plus(DAY));
    }

    /** The same in a versioned bucket, for the latest version a current timer already knows (re-tagged in place). */
    @Test
    void shouldTimeALatestVersionReTaggedIntoARuleFromTheTag() throws Exception {
        String dir = "/buckets/b/k.versions";
        String versionId = "6713be683502fa960bbac121299650d0";
        Entry untagged = Events.object("v_" + versionId, WRITTEN, 10, Map.of());
        Entry tagged = Events.tagged("v_" + versionId, WRITTEN, 10, Map.of("expire", "yes"));
        ReplayTimer armed = new ReplayTimer(TimerPlanner.currentTimerId("b", "k"), "b", "k", "k", versionId,
                "EXPIRATION_DAYS", "other", "00", WRITTEN.plus(Duration.ofDays(400)), null, 10, Map.of(), WRITTEN,
                null, null, 1);
        Instant taggedAt = WRITTEN.plus(Duration.ofDays(30));
        List<Change> changes = planner.plan(Events.record(EventKind.TAGS_CHANGED, "b", "k", dir, untagged, tagged,
                taggedAt), rules(BucketVersioning.ENABLED), id -> id.equals(armed.timerId()) ? Optional.of(armed)
                : Optional.empty(), taggedAt);
        assertThat(armedDue(changes)).isEqualTo(taggedAt);
    }
}
