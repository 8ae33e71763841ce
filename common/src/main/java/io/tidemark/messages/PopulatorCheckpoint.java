package io.tidemark.messages;

/**
 * How far the populator has published the filer meta-log, the value of the compacted {@code populator-checkpoint}
 * topic. It is written in the same Kafka transaction as the events it covers, so it never runs ahead of them or
 * lags behind.
 *
 * @param tsNs        the ts_ns of the last published event (on a cold start: where the subscription begins)
 * @param eventsAtTs  how many published events carry exactly {@code tsNs}; the filer may stamp several events
 *                    with one timestamp, and its {@code since_ns} is inclusive, so this tells them apart on resume
 * @param published   events published since the cold start, across every leader
 * @param coldStartNs when the cold start enumerated the buckets
 */
public record PopulatorCheckpoint(long tsNs, int eventsAtTs, long published, long coldStartNs) {

    /** The key of the one checkpoint record. */
    public static final String KEY = "populator";

    /** The checkpoint after one more batch, given the timestamp and same-timestamp count it ends on. */
    public PopulatorCheckpoint advancedTo(long lastTsNs, int lastEventsAtTs, int batchSize) {
        return new PopulatorCheckpoint(lastTsNs, lastEventsAtTs, published + batchSize, coldStartNs);
    }
}
