package io.tidemark.cli.audit;

import io.tidemark.messages.LifecycleEvent;
import io.tidemark.topics.ShardPartitioner;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * What an operator asked {@code tidemark audit}: the events of one bucket (or of one key in it) written in a window
 * of time, perhaps only some outcomes, and how many of them to show.
 *
 * @param key      the S3 key (the logical key: every version and upload of it), or {@code null} for the whole bucket
 * @param since    the window's start, inclusive, on the records' Kafka timestamps (when the event was written)
 * @param until    the window's end, exclusive, or {@code null} for the end of the topic as the scan starts
 * @param outcomes outcomes to keep, compared without case; one ending in {@code *} is a prefix ({@code NOOP_*});
 *                 empty keeps all
 * @param limit    how many of the matching events to keep for showing: the latest ones; the totals count all
 * @param laterThan only events answered more than this long after their due instant ({@code null}: all); events
 *                  without a due instant never match it
 */
public record AuditQuery(String bucket, String key, Instant since, Instant until, List<String> outcomes, int limit,
                         Duration laterThan) {

    public AuditQuery(String bucket, String key, Instant since, Instant until, List<String> outcomes, int limit) {
        this(bucket, key, since, until, outcomes, limit, null);
    }

    public AuditQuery {
        if (bucket == null || bucket.isEmpty()) {
            throw new IllegalArgumentException("an audit needs a bucket");
        }
        if (until != null && !until.isAfter(since)) {
            throw new IllegalArgumentException("the window is empty: --until " + until + " is not after --since "
                    + since);
        }
        if (laterThan != null && laterThan.isNegative()) {
            throw new IllegalArgumentException("--later-than cannot be negative: " + laterThan);
        }
        if (limit < 0) {
            throw new IllegalArgumentException("--limit cannot be negative: " + limit);
        }
        outcomes = List.copyOf(outcomes);
    }

    /**
     * The {@code lifecycle-events} key of the asked-for object, {@code bucket/key}: every event of it was written to
     * this key's shard partition.
     */
    public String recordKey() {
        return ShardPartitioner.key(bucket, key);
    }

    /** Whether a record written at {@code timestamp} falls inside the window. */
    public boolean inWindow(Instant timestamp) {
        return !timestamp.isBefore(since) && (until == null || timestamp.isBefore(until));
    }

    /** Whether an event is about what was asked for and has one of the asked-for outcomes. */
    public boolean matches(LifecycleEvent event) {
        return bucket.equals(event.bucket()) && matchesOutcome(event.outcome()) && (laterThan == null
                || event.lateness().filter(late -> late.compareTo(laterThan) > 0).isPresent());
    }

    private boolean matchesOutcome(String outcome) {
        if (outcomes.isEmpty()) {
            return true;
        }
        if (outcome == null) {
            return false;
        }
        String actual = outcome.toUpperCase(Locale.ROOT);
        for (String wanted : outcomes) {
            String w = wanted.toUpperCase(Locale.ROOT);
            if (w.endsWith("*") ? actual.startsWith(w.substring(0, w.length() - 1)) : actual.equals(w)) {
                return true;
            }
        }
        return false;
    }
}
