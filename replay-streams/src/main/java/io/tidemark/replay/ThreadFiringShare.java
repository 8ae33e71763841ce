package io.tidemark.replay;

import java.time.Duration;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Splits a stream thread's firing time among the replay processors that fire on it. All the tasks of a thread
 * punctuate one after another and then commit together, so a bound per task would let the thread's transaction,
 * and the wait before the first fired task becomes visible, grow with the number of tasks it holds.
 *
 * <p>Processors join when they start and at each tick (a task can move to another thread) and leave when they
 * close; weak references let a processor that was never closed drop out.
 */
final class ThreadFiringShare {

    private final ThreadLocal<Set<ReplayProcessor>> firing =
            ThreadLocal.withInitial(() -> Collections.newSetFromMap(new WeakHashMap<>()));

    void join(ReplayProcessor processor) {
        firing.get().add(processor);
    }

    void leave(ReplayProcessor processor) {
        firing.get().remove(processor);
    }

    /** One processor's part of the calling thread's bound (the bound shared evenly by its processors). */
    Duration of(Duration threadBound) {
        return threadBound.dividedBy(Math.max(1, firing.get().size()));
    }
}
