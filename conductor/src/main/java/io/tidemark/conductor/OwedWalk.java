package io.tidemark.conductor;

import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.WalkState;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A walk a pass owes the rest of (invariant 6): one that stopped as failed on a page, or a recovery walk that stalled
 * — no progress for {@code conductor.walk.stale.ms}, its chain of tasks perhaps lost. Either is resumed from its resume
 * point, in its own mode and under its own scan id, whatever the bucket's rules: a recovery walk's re-arms and timer
 * kinds come from no other walk (a steady walk skips them; a timers-only bucket gets no steady walk at all). A stalled
 * steady walk is owed nothing: a new steady walk covers what it would have.
 *
 * @param seen the state the decision was made on; the walk is marked resumed only while the state is still that
 * @param task the task that takes the walk up again
 */
record OwedWalk(WalkState seen, BucketTask task) {

    static Optional<OwedWalk> of(String bucket, Optional<WalkState> state, Instant now, Duration staleAfter) {
        if (state.isEmpty()) {
            return Optional.empty();
        }
        WalkState walk = state.get();
        boolean recovery = BucketTask.Mode.recovery.name().equals(walk.mode());
        if (!walk.failed() && !(recovery && walk.stalled(now, staleAfter))) {
            return Optional.empty();
        }
        // A state written before the resume point was kept may name none: a recovery walk then starts over, a
        // failed steady walk is left to the next steady seed.
        BucketTask.Details from = walk.resume() != null ? walk.resume()
                : recovery ? new BucketTask.Details(walk.scanId(), BucketTask.Mode.recovery, "", null) : null;
        if (from == null) {
            return Optional.empty();
        }
        return Optional.of(new OwedWalk(walk, new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                from)));
    }

    /**
     * The state once the task is in Kafka: resumed, unless it changed since it was read — a processor already took the
     * walk on, or failed it again on a later page, which the next pass then resumes.
     */
    WalkState resumedFrom(WalkState current, Instant now) {
        return seen.equals(current) ? current.resumed(now) : null;
    }

    boolean failed() {
        return seen.failed();
    }
}
