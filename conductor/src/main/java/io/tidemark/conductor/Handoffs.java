package io.tidemark.conductor;

import io.tidemark.messages.BucketTask;
import io.tidemark.topics.TopicSpec;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tasks of one pass, each with the walk-state change it stands for, and that change written only once Kafka has
 * the task. A walk recorded as seeded or resumed with no task behind it would count as under way until it went
 * stale, and a recovery walk's rest would wait all that while; a task sent whose record then fails is at worst sent
 * again by the next pass, and pages are idempotent (the same decision has the same action id, a re-arm sets the timer
 * it set).
 */
final class Handoffs {

    private static final Logger log = LoggerFactory.getLogger(Handoffs.class);

    /** What the pass got done: the buckets whose task Kafka has, and those whose task it does not. */
    record Settled(List<String> sent, List<String> resumed, List<String> unsent, String firstFailure) {
    }

    private record Handoff(String bucket, Future<?> send, UnaryOperator<WalkState> record, boolean resume) {
    }

    private final Producer<byte[], byte[]> producer;
    private final TopicSpec<String, BucketTask> bucketTasks;
    private final WalkStates walks;
    private final List<Handoff> handoffs = new ArrayList<>();

    Handoffs(Producer<byte[], byte[]> producer, TopicSpec<String, BucketTask> bucketTasks, WalkStates walks) {
        this.producer = producer;
        this.bucketTasks = bucketTasks;
        this.walks = walks;
    }

    /**
     * Hands {@code task} to the producer; {@code record} is applied to the bucket's walk state once it is sent (a
     * {@code null} result leaves the state as it is).
     */
    void send(BucketTask task, UnaryOperator<WalkState> record, boolean resume) {
        String bucket = task.target().bucket();
        handoffs.add(new Handoff(bucket, producer.send(bucketTasks.record(bucket, task)), record, resume));
    }

    /** Waits for every send and records the walks whose task was sent. */
    Settled settle() {
        List<String> sent = new ArrayList<>();
        List<String> resumed = new ArrayList<>();
        List<String> unsent = new ArrayList<>();
        String firstFailure = null;
        try {
            producer.flush();
        } catch (RuntimeException e) {
            // Each send's own future says whether it went through.
            log.warn("flushing the bucket tasks: {}", e.toString());
        }
        for (Handoff h : handoffs) {
            try {
                h.send().get(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                unsent.add(h.bucket());
                firstFailure = firstFailure == null ? "interrupted" : firstFailure;
                continue;
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                unsent.add(h.bucket());
                Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
                firstFailure = firstFailure == null ? cause.toString() : firstFailure;
                continue;
            }
            sent.add(h.bucket());
            if (h.resume()) {
                resumed.add(h.bucket());
            }
            try {
                walks.update(h.bucket(), h.record());
            } catch (Exception e) {
                log.warn("bucket {}: its task was sent but its walk state not updated ({}); the next pass may send it "
                        + "again", h.bucket(), e.toString());
            }
        }
        handoffs.clear();
        return new Settled(sent, resumed, unsent, firstFailure);
    }
}
