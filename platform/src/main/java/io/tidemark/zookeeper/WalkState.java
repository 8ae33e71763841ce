package io.tidemark.zookeeper;

import io.tidemark.messages.BucketTask;
import java.time.Duration;
import java.time.Instant;

/**
 * Where the newest walk of one bucket stands, the value of {@code /lifecycle/data/walks/<bucket>}: the conductor
 * reads it so that it never seeds a walk while another is still going, and {@code tidemark status} shows walker
 * freshness from it. Advisory: the Kafka offsets are the walk's real cursor.
 *
 * @param progressAt     when the walk last finished a page (or was seeded)
 * @param finishedAt     when the walk's last page committed, {@code null} while it runs
 * @param lastFinishedAt when the most recent walk to finish did, kept across the start of the next one
 * @param failedAt       when the walk stopped on a page it could not walk (a filer error that did not pass, a bug),
 *                       {@code null} unless it did; a failed walk is not finished: the conductor resumes it
 * @param failure        why it stopped
 * @param resume         the task from which the walk resumes should it stop: the page it failed on, or, while it runs,
 *                       the task its last recorded page went on with ({@code null} once finished, and in states written
 *                       before it was kept); the conductor resumes a failed walk, or a stalled recovery walk, from it
 * @param nullMarkers    null delete markers this walk has met so far: versions no request can remove (the gateway
 *                       looks for version "null" at the bare path only)
 * @param lastNullMarkers how many the most recent walk to finish met, kept across the start of the next one
 */
public record WalkState(String scanId, String mode, Instant startedAt, long pages, long entries, Instant progressAt,
                        Instant finishedAt, Instant lastFinishedAt, Instant failedAt, String failure,
                        BucketTask.Details resume, long nullMarkers, long lastNullMarkers) {

    public WalkState(String scanId, String mode, Instant startedAt, long pages, long entries, Instant progressAt,
                     Instant finishedAt, Instant lastFinishedAt) {
        this(scanId, mode, startedAt, pages, entries, progressAt, finishedAt, lastFinishedAt, null, null, null, 0, 0);
    }

    public static WalkState seeded(String scanId, String mode, Instant now, WalkState previous) {
        return new WalkState(scanId, mode, now, 0, 0, now, null, previous == null ? null : previous.lastFinishedAt(),
                null, null, null, 0, previous == null ? 0 : previous.lastNullMarkers());
    }

    /** Whether a walk is still under way: not finished or failed, and it made progress within {@code staleAfter}. */
    public boolean inProgress(Instant now, Duration staleAfter) {
        return finishedAt == null && failedAt == null && progressAt != null && progressAt.plus(staleAfter).isAfter(now);
    }

    /** Whether the walk stopped on a page it could not walk, and waits to be resumed. */
    public boolean failed() {
        return failedAt != null && finishedAt == null;
    }

    /**
     * Whether the walk neither finished nor failed, yet made no progress within {@code staleAfter}: its chain of tasks
     * may be lost (a task never sent, a failure never recorded) or its processors down.
     */
    public boolean stalled(Instant now, Duration staleAfter) {
        return finishedAt == null && failedAt == null && !inProgress(now, staleAfter);
    }

    /**
     * One more page done, which met {@code nullMarkersMet} null delete markers and went on with {@code next} ({@code
     * null}: it was the last).
     */
    public WalkState page(long listed, long nullMarkersMet, Instant now, BucketTask.Details next) {
        boolean last = next == null;
        long met = nullMarkers + nullMarkersMet;
        return new WalkState(scanId, mode, startedAt, pages + 1, entries + listed, now, last ? now : null,
                last ? now : lastFinishedAt, null, null, next, met, last ? met : lastNullMarkers);
    }

    /** The walk stopped on the page {@code at}; it resumes from there. */
    public WalkState failedOn(BucketTask.Details at, String why, Instant now) {
        return new WalkState(scanId, mode, startedAt, pages, entries, progressAt, null, lastFinishedAt, now, why, at,
                nullMarkers, lastNullMarkers);
    }

    /** The failed or stalled walk taken up again from {@link #resume}, which stays its resume point. */
    public WalkState resumed(Instant now) {
        return new WalkState(scanId, mode, startedAt, pages, entries, now, null, lastFinishedAt, null, null, resume,
                nullMarkers, lastNullMarkers);
    }
}
