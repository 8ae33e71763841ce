package io.tidemark.objectprocessor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The work of one assigned partition: its offsets, and one lane per object so that tasks of one object run in the
 * order they were written while tasks of other objects run beside them. Only the head of a lane is ever called.
 */
final class PartitionWork {

    private final OffsetTracker offsets = new OffsetTracker();
    private final Map<String, ArrayDeque<PendingTask>> lanes = new HashMap<>();
    /** The heads held by RETRY_LATER, apart from the lanes so that reporting them costs nothing per task. */
    private final Set<PendingTask> held = new HashSet<>();
    /** The due instants of the timers' tasks in the lanes (how many at each), for the oldest-overdue gauge. */
    private final TreeMap<Instant, Integer> dues = new TreeMap<>();

    /** Notes a record read that needs no call (it is parked unsent); the caller finishes it when that is durable. */
    void read(long offset) {
        offsets.read(offset);
    }

    /** Adds a task to its object's lane; true when it is the head and may be called now. */
    boolean enqueue(PendingTask task) {
        offsets.read(task.offset);
        ArrayDeque<PendingTask> lane = lanes.computeIfAbsent(task.lane, k -> new ArrayDeque<>());
        lane.addLast(task);
        Instant due = dueOf(task);
        if (due != null) {
            dues.merge(due, 1, Integer::sum);
        }
        return lane.size() == 1;
    }

    /** Marks a lane's head as held by RETRY_LATER from {@code now}, unless it already is. */
    void hold(PendingTask task, Instant now) {
        if (task.heldSince == null) {
            task.heldSince = now;
        }
        held.add(task);
    }

    /** Finishes a task that ran in a lane; returns the next task of that object, now free to be called. */
    Optional<PendingTask> finishHead(PendingTask task) {
        offsets.finished(task.offset);
        held.remove(task);
        ArrayDeque<PendingTask> lane = lanes.get(task.lane);
        if (lane == null || lane.peekFirst() != task) {
            throw new IllegalStateException("task " + task.source() + " finished but is not its lane's head");
        }
        lane.removeFirst();
        Instant due = dueOf(task);
        if (due != null) {
            dues.computeIfPresent(due, (d, n) -> n == 1 ? null : n - 1);
        }
        if (lane.isEmpty()) {
            lanes.remove(task.lane);
            return Optional.empty();
        }
        return Optional.of(lane.peekFirst());
    }

    void finish(long offset) {
        offsets.finished(offset);
    }

    OptionalLong committable() {
        return offsets.committable();
    }

    int unfinished() {
        return offsets.unfinishedCount();
    }

    /** The earliest due instant among the timers' tasks in the lanes, if any. */
    Optional<Instant> oldestDue() {
        return dues.isEmpty() ? Optional.empty() : Optional.of(dues.firstKey());
    }

    /** A timer's task's due instant; other paths' are older than what made them known (see Lateness). */
    private static Instant dueOf(PendingTask task) {
        return task.task == null || task.task.details() == null
                || Lateness.Path.of(task.task.details()) != Lateness.Path.TIMER ? null : task.task.details().dueAt();
    }

    /** How long the longest-waiting head of a lane has been held by RETRY_LATER. */
    Duration held(Instant now) {
        Duration longest = Duration.ZERO;
        for (PendingTask task : held) {
            Duration waited = Duration.between(task.heldSince, now);
            if (waited.compareTo(longest) > 0) {
                longest = waited;
            }
        }
        return longest;
    }
}
