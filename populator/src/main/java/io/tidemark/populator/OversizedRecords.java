package io.tidemark.populator;

import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * Makes a meta-log record that is too large for one Kafka record small enough, keeping what the pipeline reads from
 * it. Each step leaves out more, and stops as soon as the record fits: first the lifecycle XML of bucket entries (a
 * bucket event carries the entry before and after, each with up to 1 MiB of rules, which reach replay-streams whole
 * through bucket-configs), then the old entry's attributes and inline content, then the new entry's inline content.
 * The identity of an object (mtime, size, first chunk, extended attributes) is never touched, so a slimmed object
 * event still arms the right timer. The record is flagged {@code slimmed}.
 */
final class OversizedRecords {

    private OversizedRecords() {
    }

    /** The record, slimmed to at most {@code maxBytes} when it is larger; empty when even slimmed it does not fit. */
    static Optional<MetaLogRecord> fit(MetaLogRecord record, int maxBytes) {
        if (record.getSerializedSize() <= maxBytes) {
            return Optional.of(record);
        }
        MetaLogRecord slim = record.toBuilder().setSlimmed(true).build();
        for (UnaryOperator<MetaLogRecord> step : STEPS) {
            slim = step.apply(slim);
            if (slim.getSerializedSize() <= maxBytes) {
                return Optional.of(slim);
            }
        }
        return Optional.empty();
    }

    private static final java.util.List<UnaryOperator<MetaLogRecord>> STEPS = java.util.List.of(
            r -> withEntries(r, e -> e.toBuilder().removeExtended(S3Layout.LIFECYCLE_XML).build(),
                    e -> e.toBuilder().removeExtended(S3Layout.LIFECYCLE_XML).build()),
            r -> withEntries(r, e -> e.toBuilder().clearExtended().clearContent().build(), e -> e),
            r -> withEntries(r, e -> e, e -> e.toBuilder().clearContent().build()));

    private static MetaLogRecord withEntries(MetaLogRecord record, UnaryOperator<Entry> oldEntry,
                                             UnaryOperator<Entry> newEntry) {
        EventNotification.Builder event = record.getEvent().toBuilder();
        if (event.hasOldEntry()) {
            event.setOldEntry(oldEntry.apply(event.getOldEntry()));
        }
        if (event.hasNewEntry()) {
            event.setNewEntry(newEntry.apply(event.getNewEntry()));
        }
        return record.toBuilder().setEvent(event).build();
    }
}
