package io.tidemark.zookeeper;

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
 */
public record WalkState(String scanId, String mode, Instant startedAt, long pages, long entries, Instant progressAt,
                        Instant finishedAt, Instant lastFinishedAt) {

    public static WalkState seeded(String scanId, String mode, Instant now, WalkState previous) {
        return new WalkState(scanId, mode, now, 0, 0, now, null, previous == null ? null : previous.lastFinishedAt());
    }

    /** Whether a walk is still under way: not finished, and it made progress within {@code staleAfter}. */
    public boolean inProgress(Instant now, Duration staleAfter) {
        return finishedAt == null && progressAt != null && progressAt.plus(staleAfter).isAfter(now);
    }

    public WalkState page(long listed, Instant now, boolean last) {
        return new WalkState(scanId, mode, startedAt, pages + 1, entries + listed, now, last ? now : null,
                last ? now : lastFinishedAt);
    }
}
