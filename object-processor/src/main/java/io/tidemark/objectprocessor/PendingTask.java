package io.tidemark.objectprocessor;

import io.tidemark.messages.ObjectTask;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import java.time.Instant;
import org.apache.kafka.common.TopicPartition;

/** One task read from its partition and not yet finished, with its attempts so far. Owned by the loop's thread. */
final class PendingTask {

    /** The partition's work this task belongs to; a revoked partition gets a new one if it comes back. */
    final PartitionWork owner;
    final TopicPartition partition;
    final long offset;
    final String lane;
    final ObjectTask task;
    final ActionKind kind;
    final LifecycleDeleteRequest request;
    int attempts;
    Instant firstFailure;
    Instant lastFailure;
    /** Since when this task has held its object's lane waiting to be called again; null while it does not. */
    Instant heldSince;

    PendingTask(PartitionWork owner, TopicPartition partition, long offset, String lane, ObjectTask task, ActionKind kind,
                LifecycleDeleteRequest request) {
        this.owner = owner;
        this.partition = partition;
        this.offset = offset;
        this.lane = lane;
        this.task = task;
        this.kind = kind;
        this.request = request;
    }

    String source() {
        return partition.topic() + "/" + partition.partition() + "@" + offset;
    }
}
