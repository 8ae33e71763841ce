package io.tidemark.objectprocessor;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The tasks ready to be called, taken a bucket at a time in turn: one bucket's thousands of ready tasks do not keep
 * another bucket's few waiting behind them, each bucket with ready work gets an equal share of the calls (and of the
 * rate limit's permits, which calls take in the order they are made). Within a bucket, first in, first out. Only lane
 * heads are ever ready, so the order of one object's tasks is the lanes' business, not this queue's.
 *
 * <p>Not thread-safe: the task loop's thread owns it.
 */
final class ReadyByBucket {

    private final Map<String, ArrayDeque<PendingTask>> byBucket = new HashMap<>();
    /** The buckets with ready tasks, in the order their turns come. */
    private final ArrayDeque<String> turns = new ArrayDeque<>();
    private int size;

    void addLast(PendingTask task) {
        String bucket = task.task.target().bucket();
        ArrayDeque<PendingTask> queue = byBucket.get(bucket);
        if (queue == null) {
            queue = new ArrayDeque<>();
            byBucket.put(bucket, queue);
            turns.addLast(bucket);
        }
        queue.addLast(task);
        size++;
    }

    /** The next bucket's oldest ready task; that bucket's turn comes again after every other's. */
    PendingTask pollFirst() {
        String bucket = turns.pollFirst();
        if (bucket == null) {
            return null;
        }
        ArrayDeque<PendingTask> queue = byBucket.get(bucket);
        PendingTask task = queue.pollFirst();
        if (queue.isEmpty()) {
            byBucket.remove(bucket);
        } else {
            turns.addLast(bucket);
        }
        size--;
        return task;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    void removeIf(Predicate<PendingTask> filter) {
        Iterator<Map.Entry<String, ArrayDeque<PendingTask>>> buckets = byBucket.entrySet().iterator();
        boolean emptied = false;
        while (buckets.hasNext()) {
            Map.Entry<String, ArrayDeque<PendingTask>> entry = buckets.next();
            int before = entry.getValue().size();
            entry.getValue().removeIf(filter);
            size -= before - entry.getValue().size();
            if (entry.getValue().isEmpty()) {
                buckets.remove();
                emptied = true;
            }
        }
        if (emptied) {
            // One pass over the turns, not one per emptied bucket: a rebalance may empty thousands.
            turns.removeIf(bucket -> !byBucket.containsKey(bucket));
        }
    }
}
