package io.tidemark.cli.audit;

import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What an audit found, and what it read to find it.
 *
 * @param events        the latest {@link AuditQuery#limit()} matching events, oldest first
 * @param matched       how many events matched, shown or not
 * @param totals        the matching events counted by outcome
 * @param partitions    the partitions of {@code lifecycle-events} the scan was bounded to
 * @param recordsRead   the records read from them (matching or not)
 * @param undecodable   records that could not be read as a lifecycle event (skipped)
 * @param elapsedMillis how long the scan took
 */
public record AuditResult(AuditQuery query, List<AuditedEvent> events, long matched, SortedMap<String, Long> totals,
                          List<Integer> partitions, long recordsRead, long undecodable, long elapsedMillis) {

    public AuditResult {
        events = List.copyOf(events);
        partitions = List.copyOf(partitions);
        totals = Collections.unmodifiableSortedMap(new TreeMap<>(totals));
    }
}
