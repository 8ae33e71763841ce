package io.tidemark.messages;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * How far the populator has published the filer meta-log, the value of the compacted {@code populator-checkpoint}
 * topic. It is written in the same Kafka transaction as the events it covers, so it never runs ahead of them or
 * lags behind.
 *
 * @param tsNs            the ts_ns of the last published event (on a cold start: where the subscription begins)
 * @param eventsAtTs      how many published events carry exactly {@code tsNs}; the filer may stamp several events
 *                        with one timestamp, and its {@code since_ns} is inclusive, so this tells them apart on resume
 * @param published       events published since the cold start, across every leader
 * @param coldStartNs     when the cold start enumerated the buckets
 * @param coldStartCursor while a bucket enumeration is under way (a cold start's, or a gap's), the last bucket name it
 *                        has enumerated and committed ({@code ""}: none yet); {@code null} once it is complete. An
 *                        enumeration is committed in pieces so that no transaction has to outlast the listing.
 * @param walkAllNs       while the enumeration is a gap's: when the gap was found, which names its recovery walks
 *                        (every lifecycle bucket gets one, changed or not); {@code null} otherwise
 * @param gap             the last meta-log gap found, {@code null} if none ever was
 * @param filers          with several filers, each one's own cursor by address ({@code null} with one filer): then
 *                        {@code tsNs} and {@code eventsAtTs} say how far the merge of their streams was published
 * @param filersListedNs  with filers found through the master: when (by the populator's clock) it was last asked for
 *                        a list of filers that all have a cursor in {@code filers}. A filer without one joined later,
 *                        so its events are stamped no earlier, less the clocks' skew ({@code null}: not known)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs,
                                  String coldStartCursor, Long walkAllNs, Gap gap, Map<String, FilerCursor> filers,
                                  Long filersListedNs) {

    /** The key of the one checkpoint record. */
    public static final String KEY = "populator";

    /**
     * A span of the meta-log the populator cannot publish from the filers' logs: the filer no longer served it from
     * where the populator was to resume (its oldest log file started after that: the logs were purged, or the
     * checkpoint is older than the filer's history), or a filer found late may have written in it before it could be
     * told from its peers' copies there ({@link #filerFoundLate}).
     *
     * @param fromNs  where the populator was to resume
     * @param toNs    where the filer's meta-log now starts
     * @param foundNs when the gap was found
     * @param count   gaps found since the cold start, this one included
     */
    public record Gap(long fromNs, long toNs, long foundNs, long count) {
    }

    /**
     * Where one filer's own meta-log ({@code SubscribeLocalMetadata}) was read up to: its last event taken (published,
     * or dropped as one published already), and when the filer was last heard from, for retiring one that never comes
     * back.
     */
    public record FilerCursor(long tsNs, int eventsAtTs, long lastSeenMs) {
    }

    public PopulatorCheckpoint {
        filers = filers == null ? null : Collections.unmodifiableMap(new TreeMap<>(filers));
    }

    public PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs, String coldStartCursor,
                               Long walkAllNs, Gap gap, Map<String, FilerCursor> filers) {
        this(tsNs, eventsAtTs, published, coldStartNs, coldStartCursor, walkAllNs, gap, filers, null);
    }

    public PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs, String coldStartCursor,
                               Long walkAllNs, Gap gap) {
        this(tsNs, eventsAtTs, published, coldStartNs, coldStartCursor, walkAllNs, gap, null);
    }

    public PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs, String coldStartCursor) {
        this(tsNs, eventsAtTs, published, coldStartNs, coldStartCursor, null, null, null);
    }

    /** A checkpoint after a complete cold start. */
    public PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs) {
        this(tsNs, eventsAtTs, published, coldStartNs, null);
    }

    /** Whether a bucket enumeration (a cold start's, or a gap's) is still to finish. */
    public boolean coldStarting() {
        return coldStartCursor != null;
    }

    /** Whether the enumeration under way is a gap's, which asks for a recovery walk of every lifecycle bucket. */
    public boolean walkingAll() {
        return coldStartCursor != null && walkAllNs != null;
    }

    /** The checkpoint after one more batch, given the timestamp and same-timestamp count it ends on. */
    public PopulatorCheckpoint advancedTo(long lastTsNs, int lastEventsAtTs, int batchSize) {
        return new PopulatorCheckpoint(lastTsNs, lastEventsAtTs, published + batchSize, coldStartNs, coldStartCursor,
                walkAllNs, gap, filers, filersListedNs);
    }

    /** The same checkpoint resuming after {@code tsNs} instead, {@code eventsAtTs} events there already taken. */
    public PopulatorCheckpoint resumingAfter(long tsNs, int eventsAtTs) {
        return new PopulatorCheckpoint(tsNs, eventsAtTs, published, coldStartNs, coldStartCursor, walkAllNs, gap,
                filers, filersListedNs);
    }

    /** The same checkpoint with the filers' cursors replaced. */
    public PopulatorCheckpoint withFilers(Map<String, FilerCursor> cursors) {
        return new PopulatorCheckpoint(tsNs, eventsAtTs, published, coldStartNs, coldStartCursor, walkAllNs, gap, cursors,
                filersListedNs);
    }

    /** The same checkpoint, the master's list of filers read at {@code listedNs} and every filer in it tailed. */
    public PopulatorCheckpoint withFilersListedAt(long listedNs) {
        return new PopulatorCheckpoint(tsNs, eventsAtTs, published, coldStartNs, coldStartCursor, walkAllNs, gap, filers,
                listedNs);
    }

    /** The same subscription start with the enumeration committed up to {@code cursor} ({@code null}: complete). */
    public PopulatorCheckpoint enumeratedTo(String cursor) {
        return new PopulatorCheckpoint(tsNs, eventsAtTs, published, coldStartNs, cursor, cursor == null ? null
                : walkAllNs, gap, filers, filersListedNs);
    }

    /**
     * A gap found at {@code foundNs}: the populator was to resume after {@code fromNs} (this checkpoint, or an earlier
     * one when the filer could not tell at first), and the filer's meta-log now starts at {@code oldestNs}. The
     * populator goes on from here, or from just before the oldest event where that lies further (nothing before it
     * can be read any more), and enumerates every bucket, asking for a recovery walk of each lifecycle bucket.
     */
    public PopulatorCheckpoint gapFound(long fromNs, long oldestNs, long foundNs) {
        long resumeNs = Math.max(tsNs, oldestNs - 1);
        Map<String, FilerCursor> raised = null;
        if (filers != null) {
            // Each filer resumes from where its log can still be read.
            raised = new TreeMap<>();
            for (Map.Entry<String, FilerCursor> f : filers.entrySet()) {
                FilerCursor c = f.getValue();
                raised.put(f.getKey(), c.tsNs() >= oldestNs - 1 ? c : new FilerCursor(oldestNs - 1, 0, c.lastSeenMs()));
            }
        }
        return new PopulatorCheckpoint(resumeNs, resumeNs == tsNs ? eventsAtTs : 0, published, coldStartNs, "", foundNs,
                new Gap(fromNs, oldestNs, foundNs, gap == null ? 1 : gap.count() + 1), raised, filersListedNs);
    }

    /**
     * A filer found at {@code foundNs} may have written from {@code fromNs} on, and its stream is read only from
     * {@code toNs}: the span between is a gap of its own, recovered by walking every lifecycle bucket. Where the
     * others are is unchanged.
     */
    public PopulatorCheckpoint filerFoundLate(long fromNs, long toNs, long foundNs) {
        return new PopulatorCheckpoint(tsNs, eventsAtTs, published, coldStartNs, "", foundNs,
                new Gap(fromNs, toNs, foundNs, gap == null ? 1 : gap.count() + 1), filers, filersListedNs);
    }
}
