package io.tidemark.objectprocessor;

import io.tidemark.messages.BucketTask;
import io.tidemark.messages.DeadLetter;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.messages.ObjectTask;
import io.tidemark.topics.TopicSpec;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.producer.Producer;

/**
 * Writes what the processor did: one {@code lifecycle-events} record per attempt (the audit trail) and one
 * {@code object-tasks.dlq} record per parked task. Both go to the partition of the task they describe, so an
 * object's history stays in one partition, in order. A task counts as finished only once its record is acknowledged.
 */
final class TaskRecorder {

    private final Producer<byte[], byte[]> producer;
    private final TopicSpec<String, LifecycleEvent> events;
    private final TopicSpec<String, DeadLetter> deadLetters;
    private final TopicSpec<String, BucketTask> bucketTasks;

    TaskRecorder(Producer<byte[], byte[]> producer, TopicSpec<String, LifecycleEvent> events,
                 TopicSpec<String, DeadLetter> deadLetters, TopicSpec<String, BucketTask> bucketTasks) {
        this.producer = producer;
        this.events = events;
        this.deadLetters = deadLetters;
        this.bucketTasks = bucketTasks;
    }

    /** One attempt's outcome, as the audit trail keeps it. */
    CompletableFuture<Void> attempt(ObjectTask task, int partition, String key, String outcome, String reason,
                                    int attempt, Instant at) {
        return send(events, partition, key, event(task, outcome, reason, attempt, at));
    }

    /**
     * A parked task: its dead letter and an audit record saying it was parked, both sent now (a send from a
     * producer callback could wait for metadata only the producer's own thread can fetch).
     */
    CompletableFuture<Void> park(int partition, String key, DeadLetter letter, Instant at) {
        CompletableFuture<Void> parked = send(deadLetters, partition, deadLetterKey(key, letter), letter);
        if (letter.task() == null) {
            return parked;
        }
        return CompletableFuture.allOf(parked, send(events, partition, key, event(letter.task(), "PARKED",
                letter.outcome() + ": " + letter.reason(), letter.attempts(), at)));
    }

    /** A walk of one key, asked for after an answer that means "not now": keyed by bucket, like every bucket task. */
    CompletableFuture<Void> walk(BucketTask walk) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        producer.send(bucketTasks.record(walk.target().bucket(), walk), (metadata, error) -> {
            if (error == null) {
                sent.complete(null);
            } else {
                sent.completeExceptionally(error);
            }
        });
        return sent;
    }

    /**
     * The dead-letter key of a parked task: unique per task (its object and action id), so that the compacted
     * dead-letter topic keeps every parked task until a replay or purge writes its tombstone.
     */
    static String deadLetterKey(String lane, DeadLetter letter) {
        return letter.task() == null ? lane + "#" + letter.source() : lane + "#" + letter.task().actionId();
    }

    static LifecycleEvent event(ObjectTask task, String outcome, String reason, int attempt, Instant at) {
        ObjectTask.Target target = task.target();
        return new LifecycleEvent(task.actionId(), target.bucket(), target.objectPath(), target.versionId(),
                task.action(), task.kind(), task.details() == null ? null : task.details().ruleId(), outcome, reason,
                attempt, at, task.details() == null ? null : task.details().dueAt());
    }

    private <V> CompletableFuture<Void> send(TopicSpec<String, V> topic, int partition, String key, V value) {
        CompletableFuture<Void> sent = new CompletableFuture<>();
        producer.send(topic.record(partition, key, value), (metadata, error) -> {
            if (error == null) {
                sent.complete(null);
            } else {
                sent.completeExceptionally(error);
            }
        });
        return sent;
    }
}
