package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.replay.FiringCheck.Fire;
import io.tidemark.replay.FiringCheck.Retime;
import io.tidemark.replay.FiringCheck.Verdict;
import io.tidemark.replay.TimerPlanner.Arm;
import io.tidemark.replay.TimerPlanner.BucketRules;
import io.tidemark.replay.TimerPlanner.Cancel;
import io.tidemark.replay.TimerPlanner.Change;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A lock set and lifted on the latest version of a versioned key (issue 43 item 1): the object must expire once the
 * lock ends, whatever the order in which replay-streams hears of the firing, the lock's events and the listing a
 * walk of the key makes. A pure {@link TimerPlanner} / {@link FiringCheck} test over a map of timers, each record
 * planned and applied in the order a stream task would see it.
 */
class LiftedLockTest {

    private static final String BUCKET = "locked";
    private static final String KEY = "h/k";
    private static final String DIR = "/buckets/" + BUCKET + "/" + KEY + S3Layout.VERSIONS_SUFFIX;
    private static final Duration DAY = Duration.ofSeconds(10);
    private static final Instant T0 = Instant.parse("2026-11-28T16:00:00Z");
    private static final Instant DUE = T0.plus(DAY);
    private static final String XML = "<LifecycleConfiguration><Rule><ID>r</ID><Status>Enabled</Status>"
            + "<Filter><Prefix></Prefix></Filter><Expiration><Days>1</Days></Expiration></Rule>"
            + "</LifecycleConfiguration>";

    private final TimerPlanner planner = new TimerPlanner();
    private final Optional<BucketRules> rules = rules();
    private final Map<String, ReplayTimer> timers = new HashMap<>();
    private final List<Change> walks = new ArrayList<>();
    private final String currentId = TimerPlanner.currentTimerId(BUCKET, KEY);

    private static Optional<BucketRules> rules() {
        try {
            RuleReader reader = new RuleReader(ValidationMode.SEAWEEDFS, LifecycleCalendar.of(DuePolicy.EXACT, DAY));
            return Optional.of(new BucketRules(reader.read(XML), BucketVersioning.ENABLED));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Entry version(Map<String, String> extended) {
        return Events.object("v_6713be683502fa960bbac121299650d0", T0, 10, extended);
    }

    private static final Entry FREE = version(Map.of());
    private static final Entry HELD = version(Map.of(S3Layout.LEGAL_HOLD, "ON"));
    private static final Entry LIFTED = version(Map.of(S3Layout.LEGAL_HOLD, "OFF"));

    private void apply(MetaLogRecord record, Instant now) {
        for (Change change : planner.plan(record, rules, id -> Optional.ofNullable(timers.get(id)), now)) {
            if (change instanceof Arm arm) {
                timers.put(arm.timer().timerId(), arm.timer());
            } else if (change instanceof Cancel cancel) {
                timers.remove(cancel.timerId());
            } else if (change instanceof TimerPlanner.Walk) {
                walks.add(change);
            }
        }
    }

    private static MetaLogRecord created(Instant at) {
        return Events.record(EventKind.VERSION_CREATED, BUCKET, KEY, DIR, null, FREE, at);
    }

    /** An update of the version's file in place (a lock set or lifted): the populator's OTHER. */
    private static MetaLogRecord updated(Entry before, Entry after, Instant at) {
        return Events.record(EventKind.OTHER, BUCKET, KEY, DIR, before, after, at);
    }

    /** What a walk of the key sends for the latest version as it listed it. */
    private static MetaLogRecord listed(Entry entry, Instant at) {
        return Events.record(EventKind.REARM, BUCKET, KEY, DIR, null, entry, at).toBuilder()
                .setRearmRole(RearmRole.CURRENT).build();
    }

    /** Fires the current timer if due at {@code now}, as the punctuator does: true if a task went out. */
    private boolean tick(Instant now) {
        ReplayTimer timer = timers.get(currentId);
        if (timer == null || timer.dueAt().isAfter(now)) {
            return false;
        }
        Verdict verdict = FiringCheck.check(timer, rules, now);
        if (verdict instanceof Fire) {
            timers.remove(currentId);
            return true;
        }
        if (verdict instanceof Retime retime) {
            timers.put(currentId, retime.timer());
        } else {
            timers.remove(currentId);
        }
        return false;
    }

    /** The task that expires the object: fired from a timer armed on the entry as it is once the lock ended. */
    private void assertExpiresAfterLift(Instant liftedAt) {
        ReplayTimer timer = timers.get(currentId);
        assertThat(timer).as("the current version's timer after the lock was lifted").isNotNull();
        assertThat(timer.protectedUntil()).as("the lock it was armed under").isNull();
        assertThat(timer.identity()).isEqualTo(ObjectTask.ExpectedIdentity.of(EntryIdentity.of(LIFTED)));
        assertThat(tick(liftedAt.plusSeconds(1))).as("fires once the lock is lifted").isTrue();
    }

    @Test
    void holdSetBeforeDueAndLiftedAfterIt() {
        apply(created(T0), T0);
        apply(updated(FREE, HELD, T0.plusSeconds(4)), T0.plusSeconds(4));
        assertThat(tick(DUE.plusMillis(100))).as("held at the due instant").isFalse();
        Instant lifted = DUE.plusSeconds(2);
        apply(updated(HELD, LIFTED, lifted), lifted);
        assertExpiresAfterLift(lifted);
    }

    /**
     * Issue 48: the delete a lift frees is due from the lift, not from the rule's due instant it was held past, so its
     * lateness (counted from the task's due instant) is the engine's and not the hold's: a year's hold is no delete
     * a year late.
     */
    @Test
    void shouldTimeTheExpirationALiftFreesFromTheLift() {
        apply(created(T0), T0);
        apply(updated(FREE, HELD, T0.plusSeconds(4)), T0.plusSeconds(4));
        assertThat(tick(DUE.plusMillis(100))).isFalse();
        Instant lifted = DUE.plus(Duration.ofDays(365));
        apply(updated(HELD, LIFTED, lifted), lifted);
        assertThat(timers.get(currentId).dueAt()).isEqualTo(lifted);

        timers.clear();
        // The same when no timer knew the entry (its task met the hold and a walk of the key was asked for).
        apply(updated(HELD, LIFTED, lifted.plusSeconds(1)), lifted.plusSeconds(1));
        assertThat(timers.get(currentId).dueAt()).isEqualTo(lifted.plusSeconds(1));
    }

    @Test
    void holdSetAfterFiringThenTheWalkListsItHeldBeforeTheLift() {
        apply(created(T0), T0);
        assertThat(tick(DUE.plusMillis(100))).isTrue();       // the task goes out with the free identity
        apply(updated(FREE, HELD, DUE.plusMillis(500)), DUE.plusMillis(500));
        // The gateway answers STALE_IDENTITY; the object processor asks for a walk of the key, which lists it held.
        apply(listed(HELD, DUE.plusSeconds(1)), DUE.plusSeconds(1));
        assertThat(tick(DUE.plusSeconds(2))).as("held").isFalse();
        Instant lifted = DUE.plusSeconds(5);
        apply(updated(HELD, LIFTED, lifted), lifted);
        assertExpiresAfterLift(lifted);
    }

    /**
     * The order that loses it: the firing's walk listed the version while it was held, and its re-arm record reaches
     * the stream after the event of the lift (meta-log and rearm are not ordered against each other). The lift found
     * no timer to re-arm, and the listing then armed one under a hold that no longer exists: it waited for ever.
     */
    @Test
    void holdSetAfterFiringAndLiftedBeforeTheWalksListingArrives() {
        apply(created(T0), T0);
        assertThat(tick(DUE.plusMillis(100))).isTrue();
        apply(updated(FREE, HELD, DUE.plusMillis(500)), DUE.plusMillis(500));
        Instant lifted = DUE.plusSeconds(3);
        apply(updated(HELD, LIFTED, lifted), lifted);
        apply(listed(HELD, DUE.plusSeconds(4)), DUE.plusSeconds(4));  // listed at +2 s, while held
        assertExpiresAfterLift(DUE.plusSeconds(4));
    }

    /**
     * The lift is heard of while the fired task is still on its way, before any walk: the lift re-arms by itself
     * rather than waiting for the walk the task's answer asks for (which, listing it free, would re-arm it too).
     */
    @Test
    void holdSetAfterFiringAndLiftedBeforeAnyWalk() {
        apply(created(T0), T0);
        assertThat(tick(DUE.plusMillis(100))).isTrue();
        apply(updated(FREE, HELD, DUE.plusMillis(500)), DUE.plusMillis(500));
        Instant lifted = DUE.plusSeconds(3);
        apply(updated(HELD, LIFTED, lifted), lifted);
        assertExpiresAfterLift(lifted);
    }

    @Test
    void retentionThatEndsLetsItExpire() {
        Instant until = DUE.plusSeconds(4);
        Entry retained = version(Map.of(S3Layout.LOCK_MODE, "GOVERNANCE", S3Layout.RETAIN_UNTIL,
                String.valueOf(until.getEpochSecond())));
        apply(created(T0), T0);
        apply(updated(FREE, retained, T0.plusSeconds(4)), T0.plusSeconds(4));
        assertThat(tick(DUE.plusMillis(100))).as("retained at the due instant").isFalse();
        assertThat(timers.get(currentId).dueAt()).isEqualTo(until);
        assertThat(tick(until.minusMillis(1))).isFalse();
        assertThat(tick(until)).as("fires when the retention ends").isTrue();
    }

    @Test
    void retentionSetAfterFiringAndEndedBeforeTheWalksListingArrives() {
        Instant until = DUE.plusSeconds(4);
        Entry retained = version(Map.of(S3Layout.LOCK_MODE, "GOVERNANCE", S3Layout.RETAIN_UNTIL,
                String.valueOf(until.getEpochSecond())));
        apply(created(T0), T0);
        assertThat(tick(DUE.plusMillis(100))).isTrue();
        apply(updated(FREE, retained, DUE.plusMillis(500)), DUE.plusMillis(500));
        apply(listed(retained, DUE.plusSeconds(1)), DUE.plusSeconds(1));
        assertThat(tick(DUE.plusSeconds(2))).isFalse();
        assertThat(tick(until)).as("fires when the retention ends").isTrue();
    }

    /** A lift on a version some other version's timer knows as not latest arms nothing (no early, no extra task). */
    @Test
    void liftOnAnOlderVersionLeavesTheLatestVersionsTimer() {
        Entry newer = Events.object("v_6713be000000000000000000000000ff", T0.plusSeconds(1), 20, Map.of());
        apply(created(T0), T0);
        apply(Events.record(EventKind.VERSION_CREATED, BUCKET, KEY, DIR, null, newer, T0.plusSeconds(1)),
                T0.plusSeconds(1));
        ReplayTimer latest = timers.get(currentId);
        apply(updated(HELD, LIFTED, T0.plusSeconds(2)), T0.plusSeconds(2));
        assertThat(timers.get(currentId)).isEqualTo(latest);
    }

    /**
     * Found in review: a hold lifted on a demoted null version (the bare entry, never stamped) whose noncurrent task met
     * the hold, in a bucket with NoncurrentDays rules only. The event cannot tell it is noncurrent, and the walk's
     * listing made while it was held would be refused as stale: a walk of the key listed after the lift must be asked
     * for, and its listing must arm the noncurrent timer.
     */
    @Test
    void shouldAskForAWalkOfTheKeyWhenAHoldIsLiftedOnANullVersionNoTimerKnows() throws Exception {
        RuleReader reader = new RuleReader(ValidationMode.SEAWEEDFS, LifecycleCalendar.of(DuePolicy.EXACT, DAY));
        Optional<BucketRules> noncurrentOnly = Optional.of(new BucketRules(reader.read("<LifecycleConfiguration><Rule>"
                + "<ID>nc</ID><Status>Enabled</Status><Filter><Prefix></Prefix></Filter><NoncurrentVersionExpiration>"
                + "<NoncurrentDays>1</NoncurrentDays></NoncurrentVersionExpiration></Rule></LifecycleConfiguration>"),
                BucketVersioning.ENABLED));
        String bareDir = "/buckets/" + BUCKET + "/h";
        Entry held = Events.object("k", T0, 10, Map.of(S3Layout.LEGAL_HOLD, "ON"));
        Entry lifted = Events.object("k", T0, 10, Map.of(S3Layout.LEGAL_HOLD, "OFF"));
        Instant liftedAt = DUE.plusSeconds(3);

        List<Change> changes = planner.plan(Events.record(EventKind.OTHER, BUCKET, KEY, bareDir, held, lifted, liftedAt),
                noncurrentOnly, id -> Optional.empty(), liftedAt);

        assertThat(changes).filteredOn(c -> c instanceof TimerPlanner.Walk).singleElement()
                .satisfies(w -> assertThat(((TimerPlanner.Walk) w).task().details().prefix()).isEqualTo(KEY));
        ReplayTimer waiting = changes.stream().filter(c -> c instanceof Arm).map(c -> ((Arm) c).timer())
                .filter(t -> t.timerId().equals(TimerPlanner.nullVersionTimerId(BUCKET, KEY))).findFirst().orElseThrow();
        // The walk's listing of the demoted null version, after the lift: the same entry, so it is not refused.
        MetaLogRecord relisted = Events.record(EventKind.REARM, BUCKET, KEY, bareDir, null, lifted, liftedAt)
                .toBuilder().setRearmRole(RearmRole.NONCURRENT).setNoncurrentSinceNs(io.tidemark.seaweed.EpochNanos
                        .of(T0.plusSeconds(1))).build();
        assertThat(planner.plan(relisted, noncurrentOnly, id -> id.equals(waiting.timerId()) ? Optional.of(waiting)
                : Optional.empty(), liftedAt)).filteredOn(c -> c instanceof Arm).singleElement()
                .satisfies(a -> assertThat(((Arm) a).timer().noncurrentSince()).isEqualTo(T0.plusSeconds(1)));
    }
}
