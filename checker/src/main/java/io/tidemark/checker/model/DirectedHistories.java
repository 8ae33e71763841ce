package io.tidemark.checker.model;

import io.tidemark.checker.model.RuleCatalog.RuleKind;
import io.tidemark.checker.model.Step.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Histories written by hand, each the shortest path to one way of losing an expiration or deleting early that a
 * review or an operator found and the generator had not drawn yet. They are the checker's regression cases: each
 * failed on the code before its fix, and the build's slice runs them.
 */
public final class DirectedHistories {

    private static final String LOCKED = "locked";
    private static final String TOGGLED = "toggled";
    private static final List<History.BucketSpec> BUCKETS = List.of(new History.BucketSpec(LOCKED, true, true),
            new History.BucketSpec(TOGGLED, false, false), new History.BucketSpec("plain", false, false));

    private DirectedHistories() {
    }

    /** The histories by name, in the order they are run. */
    public static Map<String, History> all(long dayMillis) {
        Map<String, History> all = new LinkedHashMap<>();
        all.put("hold-lifted-after-due", holdLiftedAfterDue(dayMillis));
        all.put("hold-set-after-firing", holdSetAfterFiring(dayMillis));
        all.put("retention-ends", retentionEnds(dayMillis));
        all.put("rules-renamed-while-tasks-wait", rulesRenamedWhileTasksWait(dayMillis));
        all.put("null-version-demoted-twice", nullVersionDemotedTwice(dayMillis));
        all.put("dlq-replayed-while-blocked", deadLettersReplayedWhileBlocked(dayMillis));
        all.put("timer-unreadable", timerUnreadable(dayMillis));
        all.put("hold-lifted-before-a-held-listing-arrives", holdLiftedBeforeAHeldListingArrives(dayMillis));
        all.put("walk-failed-while-zookeeper-refuses", walkFailedWhileZooKeeperRefuses(dayMillis));
        return all;
    }

    /** The histories that need a cluster of two filers or more, by name, in the order they are run. */
    public static Map<String, History> severalFilers(long dayMillis) {
        Map<String, History> all = new LinkedHashMap<>();
        all.put("delete-and-reput-through-two-filers-one-late", deleteAndReputThroughTwoFilersOneLate(dayMillis));
        all.put("populator-back-while-filers-flush-apart", populatorBackWhileFilersFlushApart(dayMillis));
        all.put("version-demoted-while-its-filer-is-late", versionDemotedWhileItsFilerIsLate(dayMillis));
        return all;
    }

    /** The names {@link #all} and {@link #severalFilers} know. */
    public static Set<String> names() {
        Set<String> names = new LinkedHashSet<>(all(1_000).keySet());
        names.addAll(severalFilers(1_000).keySet());
        return names;
    }

    /** Whether the history named needs a cluster of several filers. */
    public static boolean needsSeveralFilers(String name) {
        return severalFilers(1_000).containsKey(name);
    }

    /** One history by name. */
    public static History named(String name, long dayMillis) {
        History history = all(dayMillis).get(name);
        if (history == null) {
            history = severalFilers(dayMillis).get(name);
        }
        if (history == null) {
            throw new IllegalArgumentException("no directed history \"" + name + "\"; known: " + names());
        }
        return history;
    }

    /** A legal hold set before the object is due and lifted after: the object is due from the lifting on. */
    static History holdLiftedAfterDue(long day) {
        return history(1, List.of(
                op(Kind.RULES, LOCKED, "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0),
                op(Kind.PUT, LOCKED, "a/1", "", 10),
                pause(day * 2 / 5),
                op(Kind.HOLD, LOCKED, "a/1", "current", 0),
                pause(day * 6 / 5),
                op(Kind.RELEASE, LOCKED, "a/1", "current", 0)));
    }

    /**
     * The hold comes just after the due instant while the object processor is away and replay-streams restarts, so
     * the task the processor finds waiting was decided on the entry before the hold; the hold is lifted a day later.
     * (Mtimes are whole seconds: an object may fall due up to a second early, so the processor goes away well before.)
     */
    static History holdSetAfterFiring(long day) {
        List<Step> steps = new ArrayList<>(heldAfterFiringWhileAway(day, day * 6 / 5));
        steps.add(pause(day));
        steps.add(op(Kind.RELEASE, LOCKED, "a/1", "current", 0));
        return history(2, steps);
    }

    /**
     * An object due a day after it is put; the object processor away from 0.2 day for {@code processorDown}, so the
     * timer fires while it is, and replay-streams restarting at the due instant; a legal hold 0.1 day after it.
     */
    private static List<Step> heldAfterFiringWhileAway(long day, long processorDown) {
        return List.of(
                op(Kind.RULES, LOCKED, "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0),
                op(Kind.PUT, LOCKED, "a/1", "", 10),
                pause(day / 5),
                op(Kind.RESTART_SERVICE, "", "", "object-processor#0", processorDown),
                pause(day * 4 / 5),
                op(Kind.RESTART_SERVICE, "", "", "replay-streams#0", day / 5),
                pause(day / 10),
                op(Kind.HOLD, LOCKED, "a/1", "current", 0));
    }

    /** A retention that ends after the due instant: the object is due from its end on. */
    static History retentionEnds(long day) {
        return history(3, List.of(
                op(Kind.RULES, LOCKED, "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0),
                op(Kind.PUT, LOCKED, "a/1", "", 10),
                pause(day * 2 / 5),
                op(Kind.RETAIN, LOCKED, "a/1", "current", day * 3 / 2)));
    }

    /**
     * Two tasks wait in object-tasks while the object processor is away; the configuration is put again with the same
     * rule under another ID, as tools that generate IDs do. Nothing changed in S3: every object is still due.
     */
    static History rulesRenamedWhileTasksWait(long day) {
        List<Step> steps = new ArrayList<>();
        steps.add(op(Kind.RULES, "plain", "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0));
        steps.add(op(Kind.PUT, "plain", "a/1", "", 10));
        steps.add(op(Kind.PUT, "plain", "a/2", "", 10));
        // Mtimes are whole seconds, so an object may fall due up to a second before a day has passed: the processor
        // goes away well before, and the rules are renamed after the due instant while it is still away.
        steps.add(pause(day / 5));
        steps.add(op(Kind.RESTART_SERVICE, "", "", "object-processor#0", day * 3 / 2));
        steps.add(pause(day * 6 / 5));
        steps.add(op(Kind.RENAME_RULES, "plain", "", "", 4242));
        return history(4, steps);
    }

    /**
     * A null version demoted (its noncurrent task falls due and waits for the object processor), promoted back when its
     * successor is deleted, and demoted again by a new put: it is noncurrent from the second demotion, so the waiting
     * task, decided on the first, must not delete it until a day after the second.
     */
    static History nullVersionDemotedTwice(long day) {
        // The task fires while the processor is away, so nothing reads the key between the first demotion and its
        // return; mtimes are whole seconds, which is why the second demotion comes 0.3 day before the return.
        return history(5, List.of(
                op(Kind.RULES, TOGGLED, "", RuleCatalog.configuration(RuleKind.NONCURRENT, 0, 1), 0),
                op(Kind.PUT, TOGGLED, "c", "", 10),
                op(Kind.VERSIONING, TOGGLED, "", "Enabled", 0),
                op(Kind.PUT, TOGGLED, "c", "", 10),
                pause(day * 3 / 10),
                op(Kind.RESTART_SERVICE, "", "", "object-processor#0", day * 11 / 10),
                pause(day * 4 / 5),
                op(Kind.DELETE_VERSION, TOGGLED, "c", "current", 0),
                pause(day / 5),
                op(Kind.PUT, TOGGLED, "c", "", 10)));
    }

    /**
     * Two keys' tasks parked by a gateway that answers BLOCKED; an operator replays the dead letters while it still
     * does, so each is parked again under the same key; the block ends, and the dead letters are replayed again.
     */
    static History deadLettersReplayedWhileBlocked(long day) {
        return history(6, List.of(
                op(Kind.RULES, "plain", "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0),
                op(Kind.PUT, "plain", "a/1", "", 10),
                op(Kind.PUT, "plain", "a/2", "", 10),
                op(Kind.GATEWAY_BLOCKED, "plain", "a/1", "", day * 2),
                op(Kind.GATEWAY_BLOCKED, "plain", "a/2", "", day * 2),
                pause(day * 6 / 5),
                op(Kind.DLQ_REPLAY, "", "", "", 0),
                pause(day / 10),
                op(Kind.DLQ_REPLAY, "", "", "", 0)));
    }

    /** The object's armed timer made unreadable before it falls due: it is set aside, and the object still expires. */
    static History timerUnreadable(long day) {
        return history(7, List.of(
                op(Kind.RULES, "plain", "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0),
                op(Kind.PUT, "plain", "a/1", "", 10),
                pause(day / 10),
                op(Kind.CORRUPT_TIMER, "", "", "", 1)));
    }

    /**
     * As {@link #holdSetAfterFiring}, but the listing the returning object processor asks for when it meets the hold is
     * made under the hold and delivered after the hold is lifted: the lifting's event reaches replay-streams first, and
     * the listing then says "held" of an object that is not any more.
     */
    static History holdLiftedBeforeAHeldListingArrives(long day) {
        List<Step> steps = new ArrayList<>();
        // Without steady walks to fall back on (passes every other day here; daily, or never while a cron job is
        // suspended, on a real cluster): the timers alone must expire the object once its hold is lifted.
        steps.add(op(Kind.CONDUCTOR_PAUSED, "", "", "", day * 10));
        steps.addAll(heldAfterFiringWhileAway(day, day * 7 / 5));
        steps.add(pause(day * 2 / 5));
        // The key's listings made from 1.5 days on arrive 1.5 days late; the processor is back from 1.6 days on (later
        // on a loaded machine), meets the hold and asks for the key's walk; the hold goes at 2.5 days.
        steps.add(op(Kind.LISTINGS_LATE, LOCKED, "a/1", String.valueOf(day * 3 / 2), day));
        steps.add(pause(day));
        steps.add(op(Kind.RELEASE, LOCKED, "a/1", "current", 0));
        return history(8, steps);
    }

    /**
     * Objects that were there before any rule: only the recovery walk the rules' arrival asks for times them. Its
     * page fails on the filer while ZooKeeper refuses to record the failure, so the walk can be taken up again only if
     * the page waits until it is recorded.
     */
    static History walkFailedWhileZooKeeperRefuses(long day) {
        return history(9, List.of(
                op(Kind.PUT, "plain", "a/1", "", 10),
                op(Kind.PUT, "plain", "a/2", "", 10),
                pause(day / 5),
                op(Kind.LISTINGS_FAIL, "", "", "", day * 5 / 2),
                op(Kind.WALK_STATES_REFUSED, "", "", "", day * 3),
                op(Kind.RULES, "plain", "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0)));
    }

    /**
     * Issue 46 item 2: an object deleted through one filer and put again at once through the other, while the first
     * filer's stream runs later than the populator's hold (and earlier than a day): the delete's event is published
     * after the put's, before the new object falls due, and must not cancel its timer (steady walks never cover
     * Expiration/Days). It needs days of 6 s or more (the delay beyond the populator's hold and skew allowance, and
     * mtimes of whole seconds, which may bring the due instant a second early). The gateway sends
     * each operation to the next filer in turn; a put between the two pairs makes one of them delete through the late
     * filer, whichever filer the first pair starts on.
     */
    static History deleteAndReputThroughTwoFilersOneLate(long day) {
        return history(10, List.of(
                op(Kind.RULES, "plain", "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0),
                op(Kind.PUT, "plain", "a/1", "", 10),
                op(Kind.PUT, "plain", "a/2", "", 10),
                pause(day / 5),
                op(Kind.FILER_STREAM_LATE, "", "", "1 " + (HistoryGenerator.filerHoldMillis(day) + 1_500), day * 2),
                pause(day / 10),
                op(Kind.DELETE, "plain", "a/1", "", 0),
                op(Kind.PUT, "plain", "a/1", "", 20),
                op(Kind.PUT, "plain", "c", "", 10),
                op(Kind.DELETE, "plain", "a/2", "", 0),
                op(Kind.PUT, "plain", "a/2", "", 20)));
    }

    /**
     * The populator away for one flush interval while writes go on through both filers (the gateway takes turns),
     * which flush their meta-logs half an interval apart, and back while they still go on. Each filer's stream is
     * caught up from the log files — every filer's, merged — and then from the filer's memory at the last stamp the
     * files gave: a filer's own events still in memory, stamped before its peer's last flush, are never sent. Each
     * object so skipped has no timer, and no steady walk serves a days-based expiration.
     */
    static History populatorBackWhileFilersFlushApart(long day) {
        long flush = HistoryGenerator.filerFlushMillis(day);
        List<Step> steps = new ArrayList<>();
        steps.add(op(Kind.RULES, "plain", "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX, 0, 1), 0));
        steps.add(op(Kind.PUT, "plain", "a/0", "", 10));
        steps.add(pause(day / 5));
        steps.add(op(Kind.RESTART_SERVICE, "", "", "populator#0", flush));
        for (int i = 1; i <= 24; i++) {
            steps.add(op(Kind.PUT, "plain", "a/" + i, "", 10));
            steps.add(pause(flush / 8));
        }
        return history(11, steps);
    }

    /**
     * A version written through a filer whose stream is late and, at once, its successor through the other (found by
     * {@code check --filers 2 --seed 4719}). The successor's events come first: the gateway's noncurrent stamp on the
     * older version arms its NoncurrentDays timer. Then the older version's own events come, late: its creation, and
     * the latest pointer moved to it — which says the version is current, and cancelled the timer its demotion had
     * armed. No steady walk comes (the conductor is paused), so nothing else times the version. Two pairs of puts, one
     * put between them, so that one pair goes late filer first whichever filer the gateway's turn starts at.
     */
    static History versionDemotedWhileItsFilerIsLate(long day) {
        return history(12, List.of(
                op(Kind.CONDUCTOR_PAUSED, "", "", "", day * 10),
                op(Kind.RULES, LOCKED, "", RuleCatalog.configuration(RuleKind.NONCURRENT, 0, 1), 0),
                pause(day / 5),
                op(Kind.FILER_STREAM_LATE, "", "", "1 " + (HistoryGenerator.filerHoldMillis(day) + 1_500), day * 2),
                pause(day / 10),
                op(Kind.PUT, LOCKED, "a/1", "", 10),
                op(Kind.PUT, LOCKED, "a/1", "", 20),
                op(Kind.PUT, "plain", "c", "", 10),
                op(Kind.PUT, LOCKED, "a/2", "", 10),
                op(Kind.PUT, LOCKED, "a/2", "", 20)));
    }

    private static Step op(Kind kind, String bucket, String key, String arg, long number) {
        return new Step(0, kind, bucket, key, arg, number);
    }

    private static Step pause(long millis) {
        return new Step(0, Kind.WAIT, "", "", "", millis);
    }

    /** Numbers the steps; the seed only tells the directed histories apart in a report (they draw nothing). */
    private static History history(long seed, List<Step> steps) {
        List<Step> numbered = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            numbered.add(new Step(i, s.kind(), s.bucket(), s.key(), s.arg(), s.number()));
        }
        return new History(-seed, BUCKETS, numbered);
    }
}
