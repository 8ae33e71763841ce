package io.tidemark.messages;

import com.fasterxml.jackson.annotation.JsonInclude;

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
 * @param coldStartCursor while a cold start is under way, the last bucket name it has enumerated and committed
 *                        ({@code ""}: none yet); {@code null} once the enumeration is complete. A cold start is
 *                        committed in pieces so that no transaction has to outlast the listing of every bucket.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs,
                                  String coldStartCursor) {

    /** The key of the one checkpoint record. */
    public static final String KEY = "populator";

    /** A checkpoint after a complete cold start. */
    public PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs) {
        this(tsNs, eventsAtTs, published, coldStartNs, null);
    }

    /** Whether the bucket enumeration of the cold start is still to finish. */
    public boolean coldStarting() {
        return coldStartCursor != null;
    }

    /** The checkpoint after one more batch, given the timestamp and same-timestamp count it ends on. */
    public PopulatorCheckpoint advancedTo(long lastTsNs, int lastEventsAtTs, int batchSize) {
        return new PopulatorCheckpoint(lastTsNs, lastEventsAtTs, published + batchSize, coldStartNs, coldStartCursor);
    }

    /** The same subscription start with the enumeration committed up to {@code cursor} ({@code null}: complete). */
    public PopulatorCheckpoint enumeratedTo(String cursor) {
        return new PopulatorCheckpoint(tsNs, eventsAtTs, published, coldStartNs, cursor);
    }
}
