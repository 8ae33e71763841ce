package io.tidemark.replay;

import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.replay.FiringCheck.Drop;
import io.tidemark.replay.FiringCheck.Fire;
import io.tidemark.replay.FiringCheck.Retime;
import io.tidemark.replay.TimerPlanner.Arm;
import io.tidemark.replay.TimerPlanner.BucketRules;
import io.tidemark.replay.TimerPlanner.Cancel;
import io.tidemark.replay.TimerPlanner.Nothing;
import io.tidemark.replay.TimerPlanner.Walk;
import io.tidemark.topics.ShardPartitioner;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.Cancellable;
import org.apache.kafka.streams.processor.PunctuationType;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Arms, re-times and cancels timers from meta-log and re-arm records, and fires due timers from a wall-clock
 * punctuator as object tasks keyed {@code bucket/logicalKey}. A firing re-checks the bucket's current rules
 * ({@link FiringCheck}); each tick fires at most {@code maxPerTick} timers so a backlog never holds up commits.
 */
final class ReplayProcessor implements Processor<String, MetaLogRecord, String, Object> {

    private static final Logger log = LoggerFactory.getLogger(ReplayProcessor.class);

    /**
     * How soon a task fires again while timers it left due remain: rather than waiting out the punctuation interval,
     * it fires the next slice on the stream thread's next loop, after the slice before has committed.
     */
    static final Duration CATCH_UP_INTERVAL = Duration.ofMillis(10);
    /** The soonest a one-off tick for the next due timer is scheduled: a bound on ticks, whatever the due times. */
    static final long MIN_WAKE_UP_DELAY_MS = 10;
    /**
     * A burst's first slice of firing time, for the whole stream thread; each slice after it is twice the one before,
     * up to {@code maxFireTimePerTick}. The first tasks are committed, and reach the object processor, within
     * milliseconds of falling due instead of after a full slice, and a long backlog still drains in full slices.
     */
    static final Duration FIRST_SLICE = Duration.ofMillis(25);
    /** How many due timers a tick reads from the store at a time. */
    static final int DUE_CHUNK = 256;
    /** Past this many doublings the slice is the whole bound whatever it is (the cap only keeps the shift small). */
    private static final int MAX_RAMP_STEP = 20;

    private final ReplayTopology.Params params;
    private final TimerPlanner planner = new TimerPlanner();
    private final BucketRulesCache rules;
    private ProcessorContext<String, Object> context;
    private TimerStore timers;
    private BucketConfigs configs;
    /** Scheduled while this task has due timers left over from its last tick; null otherwise. */
    private Cancellable catchUp;
    /** A one-off tick at the earliest pending due instant, when that comes before the next regular tick. */
    private Cancellable wakeUp;
    private long wakeUpAtMs;
    /** How many times this task's slice has doubled in the backlog under way: 0 at its first slice. */
    private int rampStep;
    /** The timestamp of this task's last firing tick; see {@link #fire}. */
    private long lastTickMs = Long.MIN_VALUE;
    /** The walks ({@code bucket/prefix}) this tick asked for in place of timers moved aside, each asked for once. */
    private final Set<String> walksThisTick = new HashSet<>();

    ReplayProcessor(ReplayTopology.Params params) {
        this.params = params;
        this.rules = new BucketRulesCache(params.rules());
    }

    @Override
    public void init(ProcessorContext<String, Object> context) {
        this.context = context;
        // A revived task is initialised again on the same instance: what was scheduled belonged to its old context.
        this.catchUp = null;
        this.wakeUp = null;
        this.wakeUpAtMs = 0;
        this.rampStep = 0;
        this.lastTickMs = Long.MIN_VALUE;
        KeyValueStore<Bytes, byte[]> timerStore = context.getStateStore(TimerStore.TIMERS);
        KeyValueStore<String, Bytes> index = context.getStateStore(TimerStore.INDEX);
        KeyValueStore<String, Long> counts = context.getStateStore(TimerStore.COUNTS);
        this.timers = new TimerStore(timerStore, index, counts);
        KeyValueStore<String, byte[]> configStore = context.getStateStore(ReplayTopology.BUCKET_CONFIGS_STORE);
        this.configs = new BucketConfigs(configStore, params.topics().bucketConfigs().valueSerde().deserializer());
        context.schedule(params.settings().punctuateInterval(), PunctuationType.WALL_CLOCK_TIME, this::fire);
        params.firingShare().join(this);
    }

    @Override
    public void process(Record<String, MetaLogRecord> record) {
        MetaLogRecord event = record.value();
        if (event == null) {
            params.metrics().skipped("empty");
            return;
        }
        Instant now = Instant.ofEpochMilli(context.currentSystemTimeMs());
        Optional<BucketRules> bucketRules = rules.rules(configs.get(event.getBucket()));
        for (TimerPlanner.Change change : planner.plan(event, bucketRules, timers::get, now)) {
            if (change instanceof Arm arm) {
                timers.arm(arm.timer());
                params.metrics().armed(arm.timer().kind());
            } else if (change instanceof Cancel cancel) {
                if (timers.cancel(cancel.timerId())) {
                    params.metrics().cancelled();
                }
            } else if (change instanceof Walk walk) {
                context.forward(new Record<>(walk.task().target().bucket(), (Object) walk.task(), record.timestamp()),
                        ReplayTopology.BUCKET_TASKS_SINK);
                String scan = walk.task().details().scanId();
                params.metrics().walkRequested(walk.reason());
                log.info("bucket {}: one event cannot tell the role of a version of {} (an older version latest "
                        + "again, a version no timer knows updated, or its lock lifted); a walk of the key is "
                        + "requested ({})",
                        event.getBucket(), event.getLogicalKey(), scan);
            } else {
                params.metrics().skipped(((Nothing) change).reason());
            }
        }
    }

    /**
     * Fires what is due at {@code timestamp} (wall-clock millis), at most a tick's worth: {@code maxPerTick} timers
     * or this task's share of the thread's slice (see {@link #FIRST_SLICE}; at most {@code maxFireTimePerTick}),
     * whichever comes first, and at least one.
     */
    private void fire(long timestamp) {
        // Streams runs every punctuator come due in one pass with one timestamp, so this task's regular, catch-up and
        // one-off ticks can meet in a loop: one slice per loop keeps the thread's transaction within its bound.
        if (timestamp == lastTickMs) {
            if (catchUp == null) {
                wakeUpForNextDue();
            }
            return;
        }
        lastTickMs = timestamp;
        walksThisTick.clear();
        Instant now = params.dueTime(timestamp);
        params.firingShare().join(this);
        Duration threadSlice = FIRST_SLICE.multipliedBy(1L << rampStep);
        if (threadSlice.compareTo(params.settings().maxFireTimePerTick()) > 0) {
            threadSlice = params.settings().maxFireTimePerTick();
        }
        long deadline = params.nanoTime().getAsLong() + params.firingShare().of(threadSlice).toNanos();
        boolean fired = false;
        boolean leftOver = false;
        int handled = 0;
        // Read in chunks, not a tick's count at once: a slice fires a small part of a backlog, and every timer read
        // is decoded.
        while (handled < params.settings().maxFiredPerTick()) {
            int wanted = Math.min(DUE_CHUNK, params.settings().maxFiredPerTick() - handled);
            List<TimerStore.Due> due = timers.due(now, wanted);
            for (TimerStore.Due entry : due) {
                if (params.nanoTime().getAsLong() - deadline > 0 && handled > 0) {
                    // The rest is due still and comes first on the next tick; this transaction must end in time.
                    params.metrics().tickCut();
                    leftOver = true;
                    break;
                }
                handled++;
                if (entry.timer() == null) {
                    moveAside(entry.key(), entry.raw(), "cannot be decoded: " + entry.error(), timestamp);
                    continue;
                }
                try {
                    fired |= handleDue(entry.timer(), now, timestamp);
                } catch (RuntimeException e) {
                    moveAside(entry.key(), entry.raw(), "its firing failed: " + e, timestamp);
                }
            }
            if (leftOver || due.size() < wanted) {
                break;
            }
            leftOver = handled >= params.settings().maxFiredPerTick();
        }
        params.metrics().pending(context.taskId().partition(), timers.pendingByKind());
        if (fired) {
            // Fired tasks are invisible to the read-committed object processor until the transaction commits: ask
            // for the commit now, so a fired task does not wait out the commit interval as well.
            context.commit();
        }
        rampStep = leftOver ? Math.min(MAX_RAMP_STEP, rampStep + 1) : 0;
        catchUp(leftOver);
        if (!leftOver) {
            wakeUpForNextDue();
        }
    }

    /** Fires, re-times or drops one due timer; true if it fired a task. */
    private boolean handleDue(ReplayTimer timer, Instant now, long timestamp) {
        FiringCheck.Verdict verdict = FiringCheck.check(timer, rules.rules(configs.get(timer.bucket())), now);
        if (verdict instanceof Fire fire) {
            if (timer.marker()) {
                // Not gone: the gateway may answer that versions still lie beneath the marker. The candidate is
                // watched until the marker goes; a version deleted beneath it arms it again.
                timers.arm(timer.retimed(timer.ruleId(), timer.ruleHash(), now.plus(FiringCheck.UNTIL_ENTRY_CHANGES)));
            } else {
                timers.remove(timer);
            }
            String key = ShardPartitioner.key(timer.bucket(), timer.logicalKey());
            context.forward(new Record<>(key, (Object) task(timer, fire), timestamp), ReplayTopology.OBJECT_TASKS_SINK);
            params.metrics().fired(timer.kind(), Duration.between(timer.dueAt(), now));
            return true;
        }
        if (verdict instanceof Retime retime) {
            timers.arm(retime.timer());
            params.metrics().retimed(timer.kind());
        } else {
            timers.remove(timer);
            String reason = ((Drop) verdict).reason();
            params.metrics().dropped(reason);
            log.info("timer {} dropped at firing: {}", timer.timerId(), reason);
        }
        return false;
    }

    /**
     * Moves a timer that cannot be read or fired out of the way: its id and bytes go to {@code replay-streams.dlq}
     * (headers say why and where from), it leaves the store, and the task's other timers fire. Left in place it would
     * be the first due timer of every tick, and nothing behind it in its task would ever fire. Its object's action is
     * not dropped with it (invariant 6): a recovery walk is asked for in its place, see {@link #walkInstead}.
     */
    private void moveAside(Bytes key, byte[] raw, String why, long timestamp) {
        String timerId = TimerStore.timerIdOf(key);
        timers.removeAt(key);
        Record<String, Object> dead = new Record<>(timerId, (Object) raw, timestamp);
        dead.headers().add("tidemark.reason", why.getBytes(StandardCharsets.UTF_8));
        dead.headers().add("tidemark.source", ("timers store, task " + context.taskId()).getBytes(
                StandardCharsets.UTF_8));
        context.forward(dead, ReplayTopology.DEAD_TIMERS_SINK);
        params.metrics().movedAside();
        String instead = walkInstead(timerId, timestamp);
        log.error("timer {} {} ; moved to the dead-letter topic so that the rest of task {} fires; {}", timerId, why,
                context.taskId(), instead);
    }

    /**
     * Asks for the recovery walk that finds a moved-aside timer's object again ({@link TimerPlanner#walkOfTimer}: a
     * walk of its key, or of its whole bucket for an upload or an id whose kind cannot be read): its listing re-arms
     * the timer from the entry as it is now, or sends the task at once if it is due. It goes out in the same
     * transaction as the dead letter and the timer's removal. A bucket with no lifecycle configuration now needs none
     * (its timers would be dropped at firing, and a new configuration brings a recovery walk of its own); the same
     * walk is asked for once a tick.
     *
     * @return what was done, for the log line
     */
    private String walkInstead(String timerId, long timestamp) {
        String stamp = context.taskId().partition() + "-" + timestamp + "-" + Integer.toHexString(timerId.hashCode());
        Optional<Walk> walk = TimerPlanner.walkOfTimer(timerId, stamp);
        if (walk.isEmpty()) {
            return "its id names no bucket, so no walk can be asked for in its place: its object's timer stays missing "
                    + "until a recovery walk of its bucket (see the record in the dead-letter topic)";
        }
        BucketTask task = walk.get().task();
        String bucket = task.target().bucket();
        String prefix = task.details().prefix();
        String what = prefix.isEmpty() ? "a recovery walk of the whole bucket " + bucket
                : "a recovery walk of key " + prefix + " in bucket " + bucket;
        if (!configs.has(bucket)) {
            return "bucket " + bucket + " has no lifecycle configuration now, so nothing is to be re-armed and no walk "
                    + "is asked for";
        }
        if (walksThisTick.contains(bucket + "/") || !walksThisTick.add(bucket + "/" + prefix)) {
            return what + " was already asked for in this tick";
        }
        context.forward(new Record<>(bucket, (Object) task, timestamp), ReplayTopology.BUCKET_TASKS_SINK);
        params.metrics().walkRequested(walk.get().reason());
        return what + " is asked for in its place, to re-arm or act on what it finds (" + task.details().scanId()
                + ")";
    }

    /**
     * A timer falling due between two ticks would wait up to a whole punctuation interval (a second by default);
     * a one-off tick at its due instant fires it then. The stream thread's loop (its poll time) sets how close.
     */
    private void wakeUpForNextDue() {
        Instant dueNow = params.dueTime(context.currentSystemTimeMs());
        long nowMs = dueNow.toEpochMilli();
        Optional<Instant> next = timers.nextDue(dueNow.plus(params.settings().punctuateInterval()));
        if (next.isEmpty() || (wakeUp != null && wakeUpAtMs <= next.get().toEpochMilli())) {
            return;
        }
        if (wakeUp != null) {
            wakeUp.cancel();
        }
        long atMs = next.get().toEpochMilli();
        Cancellable[] self = new Cancellable[1];
        self[0] = context.schedule(Duration.ofMillis(Math.max(MIN_WAKE_UP_DELAY_MS, atMs - nowMs)),
                PunctuationType.WALL_CLOCK_TIME, timestamp -> {
                    self[0].cancel();
                    if (wakeUp == self[0]) {
                        wakeUp = null;
                    }
                    fire(timestamp);
                });
        wakeUp = self[0];
        wakeUpAtMs = atMs;
    }

    /**
     * A burst is fired in slices, each committed before the next: the object processor starts on the first slice
     * while the rest are fired, and a backlog drains at the thread's pace rather than a slice per interval.
     */
    private void catchUp(boolean leftOver) {
        if (leftOver && catchUp == null) {
            catchUp = context.schedule(CATCH_UP_INTERVAL, PunctuationType.WALL_CLOCK_TIME, this::fire);
        } else if (!leftOver && catchUp != null) {
            catchUp.cancel();
            catchUp = null;
        }
    }

    /**
     * The task for a fired timer: the entry's identity as armed, the current rule's id and hash, no version ID for
     * a current-version expiration (the gateway then checks the identity against what is latest now).
     */
    static ObjectTask task(ReplayTimer timer, Fire fire) {
        boolean namesVersion = timer.noncurrent() || timer.marker();
        String action = timer.upload() ? "abort-upload" : namesVersion ? "delete-version" : "expire";
        // Only a version delete (noncurrent, or a marker) names its version; see the method comment for expirations.
        return new ObjectTask(ActionIds.of(timer), action, timer.kind(),
                new ObjectTask.Target(timer.bucket(), timer.objectPath(), namesVersion ? timer.versionId() : ""),
                new ObjectTask.Details(timer.identity(), fire.match().ruleId(), fire.match().ruleHash().toHex(),
                        timer.dueAt(), ObjectTask.FROM_TIMER, null, timer.modTime(), timer.noncurrentSince()));
    }

    @Override
    public void close() {
        params.firingShare().leave(this);
        if (context != null) {
            params.metrics().released(context.taskId().partition());
        }
    }
}
