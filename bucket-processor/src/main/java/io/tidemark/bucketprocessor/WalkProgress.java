package io.tidemark.bucketprocessor;

import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records each committed page in the bucket's walk state in ZooKeeper, for the conductor's "walk under way" check
 * and for walker freshness, with the task the walk goes on with: should its chain of tasks be lost, the conductor
 * resumes a stalled recovery walk from there. A page's record is advisory — its failure is logged and never stops a
 * walk (the committed offsets are the walk's cursor; a record a page behind only makes a resume redo a page) — but a
 * walk's failure is not: once the failed page commits, the state is all that is left of the walk, so
 * {@link #failed} throws and the page waits until it is recorded.
 */
class WalkProgress {

    private static final Logger log = LoggerFactory.getLogger(WalkProgress.class);

    private final WalkStates states;
    private final Clock clock;

    WalkProgress(WalkStates states, Clock clock) {
        this.states = states;
        this.clock = clock;
    }

    /**
     * Records a page done, which met {@code nullMarkers} null delete markers (the walk state keeps the last finished
     * walk's count for {@code tidemark status}) and went on with {@code next} (empty: it ended the walk).
     *
     * @return how long the walk took, when this page ended it and the walk's start is known
     */
    Optional<Duration> paged(BucketTask task, long handled, long nullMarkers, Optional<BucketTask> next) {
        if (task.details().prefix() != null && !task.details().prefix().isEmpty()) {
            // A walk of one prefix (replay-streams asks for one when an older version of a key is latest again)
            // says nothing of the whole bucket's freshness, and must not take the state over from a bucket walk.
            return Optional.empty();
        }
        String scanId = task.details().scanId();
        boolean first = task.details().marker() == null;
        boolean last = next.isEmpty();
        BucketTask.Details goesOn = next.map(BucketTask::details).orElse(null);
        Instant now = clock.instant();
        try {
            Optional<WalkState> written = states.update(task.target().bucket(), current -> {
                if (current == null || !scanId.equals(current.scanId())) {
                    if (!first) {
                        // A page of an older walk, still finishing: the newer walk owns the state.
                        return current == null ? WalkState.seeded(scanId, task.details().mode().name(), now, null)
                                .page(handled, nullMarkers, now, goesOn) : null;
                    }
                    return WalkState.seeded(scanId, task.details().mode().name(), now, current).page(handled,
                            nullMarkers, now, goesOn);
                }
                return current.page(handled, nullMarkers, now, goesOn);
            });
            return written.filter(s -> last && s.startedAt() != null)
                    .map(s -> Duration.between(s.startedAt(), now));
        } catch (Exception e) {
            log.warn("walk state of bucket {} not updated after page {} of walk {}: {}", task.target().bucket(),
                    task.details().marker(), scanId, e.toString());
            return Optional.empty();
        }
    }

    /**
     * Records that the walk stopped on this page and will resume from it: it is not finished, so walker freshness
     * does not move and the conductor takes it up again at its next pass. Called before the page commits.
     *
     * @throws Exception when ZooKeeper did not take it: the page must not commit yet
     */
    void failed(BucketTask task, String why) throws Exception {
        if (!wholeBucket(task)) {
            return;
        }
        Instant now = clock.instant();
        states.update(task.target().bucket(), current -> {
            WalkState base = current != null && task.details().scanId().equals(current.scanId()) ? current
                    : WalkState.seeded(task.details().scanId(), task.details().mode().name(), now, current);
            return base.failedOn(task.details(), why, now);
        });
    }

    /**
     * Whether a newer walk of the bucket has taken over from this one, which should then stop: a steady walk once
     * any other walk owns the state (a recovery walk covers every kind; a newer steady walk was seeded because this
     * one counted as stale), a recovery walk once a newer recovery walk does. The first page of a walk is never
     * superseded (it takes the state over); a failed read says no.
     */
    boolean superseded(BucketTask task) {
        if (!wholeBucket(task) || task.details().marker() == null) {
            return false;
        }
        try {
            Optional<WalkState> current = states.read(task.target().bucket());
            if (current.isEmpty() || current.get().scanId().equals(task.details().scanId())) {
                return false;
            }
            return task.details().mode() == BucketTask.Mode.steady
                    || BucketTask.Mode.recovery.name().equals(current.get().mode());
        } catch (Exception e) {
            log.warn("walk state of bucket {} not read: {}", task.target().bucket(), e.toString());
            return false;
        }
    }

    private static boolean wholeBucket(BucketTask task) {
        return task.details().prefix() == null || task.details().prefix().isEmpty();
    }

    /** For tests and for a processor without ZooKeeper: records nothing. */
    static WalkProgress none(Clock clock) {
        return new WalkProgress(null, clock) {
            @Override
            Optional<Duration> paged(BucketTask task, long handled, long nullMarkers, Optional<BucketTask> next) {
                return Optional.empty();
            }

            @Override
            void failed(BucketTask task, String why) {
            }

            @Override
            boolean superseded(BucketTask task) {
                return false;
            }
        };
    }
}
