package io.tidemark.cli.audit;

import io.tidemark.messages.LifecycleEvent;
import java.time.Instant;

/**
 * One lifecycle event and where it sits in {@code lifecycle-events}.
 *
 * @param timestamp the record's Kafka timestamp: when the object processor wrote it
 */
public record AuditedEvent(int partition, long offset, Instant timestamp, LifecycleEvent event) {
}
