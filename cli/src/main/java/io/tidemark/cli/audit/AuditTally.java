package io.tidemark.cli.audit;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Counts matching events by outcome and keeps the latest few to show. A week of a busy bucket can be millions of
 * events: only {@code limit} of them are ever held, the rest are counted and let go.
 */
final class AuditTally {

    /** Written first, then by place in the topic: the order events are shown in, oldest first. */
    static final Comparator<AuditedEvent> CHRONOLOGICAL = Comparator.comparing(AuditedEvent::timestamp)
            .thenComparingInt(AuditedEvent::partition).thenComparingLong(AuditedEvent::offset);

    private final int limit;
    /** The oldest of the kept events at its head, the one to let go when a newer one comes. */
    private final PriorityQueue<AuditedEvent> latest = new PriorityQueue<>(CHRONOLOGICAL);
    private final SortedMap<String, Long> totals = new TreeMap<>();
    private long matched;

    AuditTally(int limit) {
        this.limit = limit;
    }

    void add(AuditedEvent e) {
        matched++;
        totals.merge(String.valueOf(e.event().outcome()), 1L, Long::sum);
        if (limit == 0) {
            return;
        }
        if (latest.size() < limit) {
            latest.add(e);
        } else if (CHRONOLOGICAL.compare(e, latest.peek()) > 0) {
            latest.poll();
            latest.add(e);
        }
    }

    long matched() {
        return matched;
    }

    SortedMap<String, Long> totals() {
        return totals;
    }

    /** The kept events, oldest first. */
    List<AuditedEvent> latest() {
        List<AuditedEvent> events = new ArrayList<>(latest);
        events.sort(CHRONOLOGICAL);
        return events;
    }
}
