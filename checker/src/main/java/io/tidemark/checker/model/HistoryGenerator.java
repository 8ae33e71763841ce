package io.tidemark.checker.model;

import io.tidemark.checker.model.RuleCatalog.RuleKind;
import io.tidemark.checker.model.Step.Kind;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Histories from a seed. Bucket names are the history's own; a run prefixes them, so that runs can share a cluster.
 * Three buckets: one versioned with object lock, one that starts unversioned and has its versioning turned on and
 * suspended, one never versioned. Few keys per bucket, and the key touched last is picked again more often than not, so
 * the same object is written, tagged, locked and deleted again near its due instants — where the pipeline's races are.
 * Faults fall at random places among the operations; a gateway that answers BLOCKED for a while is followed by a replay
 * of the dead letters, as an operator would, so that what was parked is owed again.
 */
public final class HistoryGenerator {

    /** The services a fault may restart. */
    public static final List<String> SERVICES = List.of("populator", "replay-streams", "object-processor",
            "bucket-processor");
    private static final List<String> KEYS = List.of("a/1", "a/2", "b/1", "b/2", "c");
    /** Writes in a burst across a populator's return, one every eighth of the span (three spans in all). */
    private static final int BURST_PUTS = 24;
    private static final long MIN_BURST_SPAN_MILLIS = 3_000;

    /**
     * A filer's clock is set off by less than this: the populator assumes filers' clocks within
     * {@code populator.filers.max.clock.skew.ms} (500 ms by default) of each other, and a fault beyond what the
     * pipeline is configured to absorb would be a finding about the configuration, not the code.
     */
    static final long MAX_FILER_SKEW_MILLIS = 400;

    /**
     * How long the checker's populator waits for a silent filer ({@code populator.filers.hold.max.ms}): a quarter of a
     * day, and no more than the default 2 s. Scaled to the day so that a filer's stream can be later than the hold and
     * the clock-skew allowance together (its events then published after its peers' newer ones) and still earlier
     * than a day (before what they undo falls due), which the default 2 s hold and a 2 s day would never allow.
     */
    public static long filerHoldMillis(long dayMillis) {
        return Math.min(2_000, dayMillis / 4);
    }

    /**
     * How often each filer of a checker's cluster flushes its log ({@code populator.filers.flush.interval.ms} too):
     * half a day, so that a catch-up's skip and its second read both fall inside a history.
     */
    public static long filerFlushMillis(long dayMillis) {
        return Math.max(200, dayMillis / 2);
    }

    /** The populator's default {@code populator.filers.max.clock.skew.ms}, which the checker leaves as it is. */
    static final long FILER_SKEW_ALLOWANCE_MILLIS = 500;

    private final int maxDays;
    private final long dayMillis;
    private final List<Kind> faultKinds;
    private final int filers;

    /** A generator for a single filer. */
    public HistoryGenerator(int maxDays, long dayMillis, Collection<Kind> faultKinds) {
        this(maxDays, dayMillis, faultKinds, 1);
    }

    /**
     * @param maxDays    the longest rule, in lifecycle days
     * @param dayMillis  a lifecycle day, which sizes pauses and fault lengths
     * @param faultKinds the kinds of fault drawn from, each as likely as the others
     * @param filers     how many filers the cluster runs; filer faults need more than one
     */
    public HistoryGenerator(int maxDays, long dayMillis, Collection<Kind> faultKinds, int filers) {
        if (faultKinds.isEmpty() || !faultKinds.stream().allMatch(Kind::fault)) {
            throw new IllegalArgumentException("faults to draw from must be fault kinds, and some: " + faultKinds);
        }
        if (filers < 2 && faultKinds.stream().anyMatch(Kind::filerFault)) {
            throw new IllegalArgumentException("filer faults need a cluster of several filers, not " + filers);
        }
        this.maxDays = maxDays;
        this.dayMillis = dayMillis;
        this.faultKinds = List.copyOf(faultKinds.stream().sorted().distinct().toList());
        this.filers = filers;
    }

    /** Every kind of fault a single filer allows; Kafka and ZooKeeper restarts only with {@code clusterFaults}. */
    public static List<Kind> faultKinds(boolean clusterFaults) {
        return faultKinds(clusterFaults, 1);
    }

    /** Every kind of fault; Kafka and ZooKeeper restarts only with {@code clusterFaults}, filer faults with filers. */
    public static List<Kind> faultKinds(boolean clusterFaults, int filers) {
        return Arrays.stream(Kind.values()).filter(Kind::fault).filter(kind -> !kind.change())
                .filter(kind -> clusterFaults || (kind != Kind.KAFKA_RESTART && kind != Kind.ZOOKEEPER_RESTART))
                .filter(kind -> filers > 1 || !kind.filerFault()).toList();
    }

    /** A history of {@code operations} operations with {@code faults} faults among them, and no changes. */
    public History generate(long seed, int operations, int faults) {
        return generate(seed, operations, faults, 0);
    }

    /**
     * A history of {@code operations} operations with {@code faults} faults and {@code changes} changes among them.
     * The changes are drawn from a random of their own and inserted last, so that the operations and faults are the
     * ones the seed made before changes existed, in the same order.
     */
    public History generate(long seed, int operations, int faults, int changes) {
        History plain = generatePlain(seed, operations, faults);
        if (changes == 0) {
            return plain;
        }
        Random random = new Random(seed * 0x9E3779B97F4A7C15L + 17);
        List<Step> steps = new ArrayList<>(plain.steps());
        for (int i = 0; i < changes; i++) {
            steps.addAll(random.nextInt(steps.size() + 1), change(random, plain.buckets()));
        }
        return new History(seed, plain.buckets(), numbered(steps));
    }

    private static List<Step> numbered(List<Step> steps) {
        List<Step> numbered = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            Step s = steps.get(i);
            numbered.add(new Step(i, s.kind(), s.bucket(), s.key(), s.arg(), s.number()));
        }
        return numbered;
    }

    /**
     * One change, as the steps that make it: a rule set re-PUT under new IDs while the object processor is away; a
     * legal hold set and lifted later; a
     * null version (or any current version) promoted back by deleting its successor and demoted again by a put, while
     * a task may wait; the dead letters of a BLOCKED key replayed while the gateway still answers BLOCKED; an armed
     * timer made unreadable; a hold lifted while the filer's answers arrive late (a listing made under the hold is
     * delivered after its lifting); a walk that fails while ZooKeeper refuses to record it. With several filers also
     * a burst of writes across a populator's return while the filers flush apart, and a delete and re-put through
     * two filers while one's stream is late.
     */
    private List<Step> change(Random random, List<History.BucketSpec> buckets) {
        String key = KEYS.get(random.nextInt(KEYS.size()));
        // One filer: the draw a seed made before the several-filer changes existed.
        return switch (random.nextInt(filers > 1 ? 9 : 7)) {
            case 7 -> burstAcrossPopulatorReturn(random);
            case 8 -> deleteAndReputOneFilerLate(random);
            case 0 -> List.of(
                    // Tasks wait for the object processor while the rules are renamed: they must still act.
                    new Step(0, Kind.RESTART_SERVICE, "", "", "object-processor#" + random.nextInt(2),
                            random.nextLong(dayMillis, dayMillis * 3 / 2)),
                    new Step(0, Kind.WAIT, "", "", "", dayMillis * 3 / 5),
                    new Step(0, Kind.RENAME_RULES, buckets.get(random.nextInt(buckets.size())).name(), "", "",
                            1 + random.nextInt(99_999)));
            case 1 -> List.of(new Step(0, Kind.HOLD_LIFTED, "locked", key, "current",
                    random.nextLong(dayMillis / 2, dayMillis * 2)));
            case 4 -> List.of(new Step(0, Kind.CORRUPT_TIMER, "", "", "", 1 + random.nextInt(99_999)));
            case 5 -> List.of(listingsLate(random, "locked", key),
                    new Step(0, Kind.HOLD_LIFTED, "locked", key, "current", random.nextLong(dayMillis / 5, dayMillis)));
            case 6 -> {
                long length = random.nextLong(dayMillis * 2, dayMillis * 3);
                yield List.of(new Step(0, Kind.LISTINGS_FAIL, "", "", "", length),
                        new Step(0, Kind.WALK_STATES_REFUSED, "", "", "", length + dayMillis / 2));
            }
            case 2 -> {
                String bucket = random.nextBoolean() ? "toggled" : "locked";
                yield List.of(new Step(0, Kind.DELETE_VERSION, bucket, key, "current", 0),
                        new Step(0, Kind.WAIT, "", "", "", random.nextLong(dayMillis / 5, dayMillis / 2)),
                        new Step(0, Kind.PUT, bucket, key, "", 10));
            }
            default -> {
                String bucket = buckets.get(random.nextInt(buckets.size())).name();
                long length = random.nextLong(dayMillis, dayMillis * 2);
                yield List.of(new Step(0, Kind.GATEWAY_BLOCKED, bucket, key, "", length),
                        new Step(0, Kind.WAIT, "", "", "", length / 2),
                        new Step(0, Kind.DLQ_REPLAY, "", "", "", 0));
            }
        };
    }

    private History generatePlain(long seed, int operations, int faults) {
        Random random = new Random(seed);
        List<History.BucketSpec> buckets = List.of(new History.BucketSpec("locked", true, true),
                new History.BucketSpec("toggled", false, false), new History.BucketSpec("plain", false, false));
        List<Step> ops = new ArrayList<>();
        Map<String, String> lastKey = new HashMap<>();
        // Every bucket starts with rules, so that the first objects already have something to fall due for.
        for (History.BucketSpec bucket : buckets) {
            ops.add(new Step(0, Kind.RULES, bucket.name(), "", RuleCatalog.randomConfiguration(random, maxDays), 0));
        }
        while (ops.size() < operations) {
            History.BucketSpec bucket = buckets.get(random.nextInt(buckets.size()));
            String key = lastKey.containsKey(bucket.name()) && random.nextInt(10) < 6 ? lastKey.get(bucket.name())
                    : KEYS.get(random.nextInt(KEYS.size()));
            lastKey.put(bucket.name(), key);
            ops.add(operation(random, bucket, key));
        }
        List<Step> steps = new ArrayList<>(ops);
        for (int i = 0; i < faults; i++) {
            steps.add(random.nextInt(steps.size() + 1), fault(random, buckets));
        }
        return new History(seed, buckets, numbered(steps));
    }

    private Step operation(Random random, History.BucketSpec bucket, String key) {
        String b = bucket.name();
        int roll = random.nextInt(100);
        // Out of 100: put 30, multipart uploads 5 (begun 3, completed or aborted 2), delete 9, delete a version 7,
        // tags 12, locks 10 (the locked bucket; a put elsewhere), versioning 4 (the toggled bucket; a put
        // elsewhere), rules 6, a pause 17.
        if (roll >= 63 && roll < 73 && !bucket.objectLock() || roll >= 73 && roll < 77 && !b.equals("toggled")) {
            roll = 0;
        }
        if (roll < 30) {
            String tags = random.nextBoolean() ? "" : "class=" + (random.nextBoolean() ? "tmp" : "keep");
            return new Step(0, Kind.PUT, b, key, tags, random.nextBoolean() ? 10 : 500);
        }
        if (roll < 33) {
            return new Step(0, Kind.UPLOAD, b, key, "", random.nextBoolean() ? 10 : 500);
        }
        if (roll < 35) {
            return new Step(0, random.nextBoolean() ? Kind.COMPLETE_UPLOAD : Kind.ABORT_UPLOAD, b, key, "", 0);
        }
        if (roll < 44) {
            return new Step(0, Kind.DELETE, b, key, "", 0);
        }
        if (roll < 51) {
            String which = List.of("oldest", "noncurrent", "current").get(random.nextInt(3));
            return new Step(0, Kind.DELETE_VERSION, b, key, which, random.nextInt(1_000));
        }
        if (roll < 63) {
            String which = random.nextBoolean() ? "current" : "noncurrent";
            String tags = random.nextInt(3) == 0 ? "" : "class=" + (random.nextBoolean() ? "tmp" : "keep");
            return new Step(0, Kind.TAG, b, key, which + ":" + tags, random.nextInt(1_000));
        }
        if (roll < 73) {
            String which = random.nextBoolean() ? "current" : "noncurrent";
            return switch (random.nextInt(3)) {
                case 0 -> new Step(0, Kind.HOLD, b, key, which, random.nextInt(1_000));
                case 1 -> new Step(0, Kind.RELEASE, b, key, which, random.nextInt(1_000));
                default -> new Step(0, Kind.RETAIN, b, key, which, dayMillis * (1 + random.nextInt(2)));
            };
        }
        if (roll < 77) {
            return new Step(0, Kind.VERSIONING, b, "", random.nextBoolean() ? "Enabled" : "Suspended", 0);
        }
        if (roll < 83) {
            return random.nextInt(6) == 0 ? new Step(0, Kind.REMOVE_RULES, b, "", "", 0)
                    : new Step(0, Kind.RULES, b, "", RuleCatalog.randomConfiguration(random, maxDays), 0);
        }
        return new Step(0, Kind.WAIT, "", "", "", random.nextLong(dayMillis / 4, dayMillis * 3 / 2));
    }

    private Step fault(Random random, List<History.BucketSpec> buckets) {
        long length = random.nextLong(dayMillis / 2, dayMillis * 2);
        return switch (faultKinds.get(random.nextInt(faultKinds.size()))) {
            case RESTART_SERVICE -> new Step(0, Kind.RESTART_SERVICE, "", "", SERVICES.get(random.nextInt(
                    SERVICES.size())) + "#" + random.nextInt(2), random.nextLong(0, dayMillis));
            case FILER_UNAVAILABLE -> new Step(0, Kind.FILER_UNAVAILABLE, "", "", "", length);
            case FILER_SLOW -> new Step(0, Kind.FILER_SLOW, "", "", String.valueOf(50 + random.nextInt(250)), length);
            case GATEWAY_RETRY_LATER -> new Step(0, Kind.GATEWAY_RETRY_LATER, buckets.get(random.nextInt(
                    buckets.size())).name(), KEYS.get(random.nextInt(KEYS.size())), "", length);
            case GATEWAY_BLOCKED -> new Step(0, Kind.GATEWAY_BLOCKED, buckets.get(random.nextInt(buckets.size()))
                    .name(), KEYS.get(random.nextInt(KEYS.size())), "", length);
            case GATEWAY_UNKNOWN -> new Step(0, Kind.GATEWAY_UNKNOWN, "", "", "", 1 + random.nextInt(3));
            case DLQ_REPLAY -> new Step(0, Kind.DLQ_REPLAY, "", "", "", 0);
            case CLOCK_SKEW -> clockSkew(random, length);
            case KAFKA_RESTART -> new Step(0, Kind.KAFKA_RESTART, "", "", "", random.nextLong(0, dayMillis));
            case ZOOKEEPER_RESTART -> new Step(0, Kind.ZOOKEEPER_RESTART, "", "", "", 0);
            // Never filer 0: it is filer.address, where every service's other calls go, and making it unavailable
            // is FILER_UNAVAILABLE's part; this one is about a peer whose meta-log is tailed going away.
            case FILER_STOP -> new Step(0, Kind.FILER_STOP, "", "", String.valueOf(1 + random.nextInt(filers - 1)),
                    length);
            case FILER_CLOCK_SKEW -> filerClockSkew(random, length);
            case FILER_STREAM_LATE -> filerStreamLate(random, length);
            case CORRUPT_TIMER -> new Step(0, Kind.CORRUPT_TIMER, "", "", "", 1 + random.nextInt(99_999));
            case LISTINGS_LATE -> listingsLate(random, "", "");
            case LISTINGS_FAIL -> new Step(0, Kind.LISTINGS_FAIL, "", "", "", length);
            case WALK_STATES_REFUSED -> new Step(0, Kind.WALK_STATES_REFUSED, "", "", "", length);
            case CONDUCTOR_PAUSED -> new Step(0, Kind.CONDUCTOR_PAUSED, "", "", "", length);
            default -> throw new IllegalStateException("not a fault: " + faultKinds);
        };
    }

    /**
     * The filer's listings (of one key, when one is named) delivered a fifth to a half of a day after they are read,
     * for half a day to a day.
     */
    private Step listingsLate(Random random, String bucket, String key) {
        return new Step(0, Kind.LISTINGS_LATE, bucket, key,
                String.valueOf(random.nextLong(dayMillis / 5, dayMillis / 2)), random.nextLong(dayMillis / 2, dayMillis));
    }

    /**
     * A service instance's clock stepped ahead (up to three days: it would act early) or behind (up to a day: it acts
     * late, within the grace), as an NTP step or a drifting VM clock would.
     */
    private Step clockSkew(Random random, long length) {
        String instance = SERVICES.get(random.nextInt(SERVICES.size())) + "#" + random.nextInt(2);
        long offset = random.nextInt(3) < 2 ? random.nextLong(dayMillis / 2, dayMillis * 3)
                : -random.nextLong(dayMillis / 4, dayMillis);
        return new Step(0, Kind.CLOCK_SKEW, "", "", instance + " " + offset, length);
    }

    /**
     * A populator away for about one flush interval while writes of new objects (due in a day) go on through every
     * filer in turn, and back while they still do: each filer's stream catches up from the log files, then from its
     * memory at the last stamp the files gave, and a filer's own events stamped before its peer's last flush are not
     * sent on it.
     */
    private List<Step> burstAcrossPopulatorReturn(Random random) {
        long flush = filerFlushMillis(dayMillis);
        String prefix = "a/burst" + random.nextInt(1_000) + "-";
        List<Step> steps = new ArrayList<>();
        steps.add(keysUnderAExpireInADay(random));
        // Seconds at least, whatever the day's length: the populator's start and its catch-up take that long.
        long span = Math.max(flush, MIN_BURST_SPAN_MILLIS);
        steps.add(new Step(0, Kind.RESTART_SERVICE, "", "", "populator#" + random.nextInt(2),
                random.nextLong(span / 2, span * 3 / 2)));
        for (int i = 0; i < BURST_PUTS; i++) {
            steps.add(new Step(0, Kind.PUT, "plain", prefix + i, "", 10));
            steps.add(new Step(0, Kind.WAIT, "", "", "", span / 8));
        }
        return steps;
    }

    /** The {@code plain} bucket's rules set to expire every key under {@code a/} a day after it is written. */
    private static Step keysUnderAExpireInADay(Random random) {
        return new Step(0, Kind.RULES, "plain", "", RuleCatalog.configuration(RuleKind.EXPIRE_PREFIX,
                random.nextInt(100), 1), 0);
    }

    /**
     * A filer's stream late by more than the populator waits for it, and an object (due in a day) deleted and put
     * again, the gateway taking the two through different filers: the late filer's event is published after the
     * other's newer one, whichever it is.
     */
    private List<Step> deleteAndReputOneFilerLate(Random random) {
        String key = "a/late" + random.nextInt(1_000);
        List<Step> steps = new ArrayList<>();
        steps.add(keysUnderAExpireInADay(random));
        steps.add(new Step(0, Kind.PUT, "plain", key, "", 10));
        steps.add(new Step(0, Kind.WAIT, "", "", "", dayMillis / 5));
        steps.add(filerStreamLate(random, dayMillis * 2));
        steps.add(new Step(0, Kind.WAIT, "", "", "", dayMillis / 10));
        steps.add(new Step(0, Kind.DELETE, "plain", key, "", 0));
        steps.add(new Step(0, Kind.PUT, "plain", key, "", 20));
        return steps;
    }

    /**
     * A filer's own meta-log stream delivered later than the populator waits for a silent filer (its hold and the
     * clock-skew allowance), by up to a day: its events are published after its peers' newer ones, some of them before
     * what they undo or redo falls due (with days long enough: see {@link #filerHoldMillis}).
     */
    private Step filerStreamLate(Random random, long length) {
        long late = filerHoldMillis(dayMillis) + FILER_SKEW_ALLOWANCE_MILLIS + 100;
        long delay = random.nextLong(late, Math.max(late + 1, dayMillis * 9 / 10));
        return new Step(0, Kind.FILER_STREAM_LATE, "", "", random.nextInt(filers) + " " + delay, length);
    }

    /**
     * A filer's clock, which stamps its meta-log events, stepped ahead or back by 50 to 399 ms: its events then sort
     * among its peers' out of the order the writes happened in, within what the populator allows for.
     */
    private Step filerClockSkew(Random random, long length) {
        long size = random.nextLong(50, MAX_FILER_SKEW_MILLIS);
        long offset = random.nextBoolean() ? size : -size;
        return new Step(0, Kind.FILER_CLOCK_SKEW, "", "", random.nextInt(filers) + " " + offset, length);
    }
}
