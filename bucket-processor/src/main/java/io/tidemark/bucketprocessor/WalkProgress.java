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
 * and for walker freshness. Advisory: a failure here is logged and counted by the caller, never stops a walk (the
 * committed offsets are the walk's cursor), and at worst makes the conductor skip that bucket until the walk
 * counts as stale.
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
     * @return how long the walk took, when this page ended it and the walk's start is known
     */
    Optional<Duration> paged(BucketTask task, long handled, boolean last) {
        if (task.details().prefix() != null && !task.details().prefix().isEmpty()) {
            // A walk of one prefix (replay-streams asks for one when an older version of a key is latest again)
            // says nothing of the whole bucket's freshness, and must not take the state over from a bucket walk.
            return Optional.empty();
        }
        String scanId = task.details().scanId();
        boolean first = task.details().marker() == null;
        Instant now = clock.instant();
        try {
            Optional<WalkState> written = states.update(task.target().bucket(), current -> {
                if (current == null || !scanId.equals(current.scanId())) {
                    if (!first) {
                        // A page of an older walk, still finishing: the newer walk owns the state.
                        return current == null ? WalkState.seeded(scanId, task.details().mode().name(), now, null)
                                .page(handled, now, last) : null;
                    }
                    return WalkState.seeded(scanId, task.details().mode().name(), now, current).page(handled, now,
                            last);
                }
                return current.page(handled, now, last);
            });
            return written.filter(s -> last && s.startedAt() != null)
                    .map(s -> Duration.between(s.startedAt(), now));
        } catch (Exception e) {
            log.warn("walk state of bucket {} not updated after page {} of walk {}: {}", task.target().bucket(),
                    task.details().marker(), scanId, e.toString());
            return Optional.empty();
        }
    }

    /** For tests and for a processor without ZooKeeper: records nothing. */
    static WalkProgress none(Clock clock) {
        return new WalkProgress(null, clock) {
            @Override
            Optional<Duration> paged(BucketTask task, long handled, boolean last) {
                return Optional.empty();
            }
        };
    }
}
