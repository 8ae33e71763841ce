package io.tidemark.bucketprocessor;

import io.tidemark.messages.BucketTask;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.topics.KafkaFailure;
import io.tidemark.topics.TopicRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bucket processor's consume-transform-produce loop. Each poll's bucket tasks (one page each) are walked, and
 * their object tasks, re-arm records and continuation tasks are sent and committed together with the consumed
 * offsets in one Kafka transaction: a crash at any point redoes the pages whose transaction did not commit, and the
 * committed output holds each page once. A transaction takes pages until it has been open for its time bound (a
 * slow filer must not run it into the coordinator's timeout); the pages left go into the next one.
 *
 * <p>Errors: a record that is not a bucket task is logged, counted and consumed (never a stuck partition). A page the
 * filer failed on in a way that may pass (UNAVAILABLE, a deadline) is tried again after a pause that grows with its
 * attempts — the pages before it are committed, the rest of its partition waits behind it, other partitions go on —
 * and one the filer failed on itself (UNKNOWN, INTERNAL, CANCELLED) the same, a bounded number of times. A Kafka
 * failure aborts the transaction, rewinds to the batch's first offsets and tries again after a growing pause. A page that cannot be walked — that bound reached, a refusal, a bug — stops its walk as
 * <em>failed</em>, not finished: the walk state keeps the page, the conductor resumes the walk from it at its next
 * pass (a walk of one key is sent again instead), and it is counted and alerted on. That state is written before the
 * page commits — once the page's offset is consumed with no continuation, it is the only trace of the walk — and while
 * ZooKeeper does not take it, the page waits and is tried again like a page the filer failed on. A transaction the
 * coordinator aborted for outliving its timeout is told from fencing by how long it was open: a new producer takes
 * over and the pages are done again. A fenced producer otherwise ends the loop with an exception.
 */
final class PageLoop {

    private static final Logger log = LoggerFactory.getLogger(PageLoop.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);

    /**
     * @param faultMaxAttempts  attempts at a page the filer fails on (UNKNOWN, INTERNAL, CANCELLED) before its walk
     *                          is stopped as failed
     * @param transactionBound  how long a transaction takes pages for
     * @param transactionTimeout the producer's {@code transaction.timeout.ms}: a commit that fails as fenced after a
     *                          transaction open this long was aborted by the coordinator, not by a newer producer
     */
    record Limits(Duration backoffMax, int faultMaxAttempts, Duration transactionBound, Duration transactionTimeout) {
    }

    private final Consumer<byte[], byte[]> consumer;
    private final Supplier<Producer<byte[], byte[]>> producers;
    private final TopicRegistry topics;
    private final Deserializer<BucketTask> decoder;
    private final java.util.function.Function<BucketTask, PageWorker.PageResult> worker;
    private final WalkProgress progress;
    private final BucketProcessorMetrics metrics;
    private final Limits limits;
    private final Clock clock;
    /** Failed attempts per page (scan and marker) the filer failed on, until the page commits or its walk fails. */
    private final Map<String, Integer> faults = new LinkedHashMap<>();
    /** Failed attempts per failed page at writing its walk's failure, until the write or the page's commit. */
    private final Map<String, Integer> unrecorded = new LinkedHashMap<>();
    private Producer<byte[], byte[]> producer;
    private long transactionBegan;
    private volatile boolean polling;

    PageLoop(Consumer<byte[], byte[]> consumer, Supplier<Producer<byte[], byte[]>> producers, TopicRegistry topics,
             java.util.function.Function<BucketTask, PageWorker.PageResult> worker, WalkProgress progress,
             BucketProcessorMetrics metrics, Limits limits, Clock clock) {
        this.consumer = consumer;
        this.producers = producers;
        this.topics = topics;
        this.decoder = topics.bucketTasks().valueSerde().deserializer();
        this.worker = worker;
        this.progress = progress;
        this.metrics = metrics;
        this.limits = limits;
        this.clock = clock;
    }

    boolean polling() {
        return polling;
    }

    /** Runs until {@code running} turns false. */
    void run(BooleanSupplier running) {
        producer = producers.get();
        consumer.subscribe(List.of(topics.bucketTasks().name()));
        int failures = 0;
        try {
            while (running.getAsBoolean()) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
                polling = true;
                if (records.isEmpty()) {
                    continue;
                }
                try {
                    Batch batch = commit(records);
                    failures = 0;
                    for (Committed c : batch.done()) {
                        afterCommit(c);
                    }
                    if (batch.retry() != null) {
                        // The page that waits, and what followed it on its partition, are polled again after the
                        // pause; the pages before it are committed.
                        metrics.failure(batch.retry().where());
                        log.warn("a page {} and is tried again in {} ms: {}", batch.retry().what(),
                                batch.retryAfter().toMillis(), batch.retry().cause().toString());
                        sleep(batch.retryAfter(), running);
                    }
                } catch (KafkaException e) {
                    if (KafkaFailure.of(e) == KafkaFailure.FENCED) {
                        Duration open = Duration.ofNanos(System.nanoTime() - transactionBegan);
                        // A newer member with this consumer's group.instance.id is fencing however old the
                        // transaction is; a producer's epoch bumped past a transaction's age is the coordinator's.
                        if (open.compareTo(limits.transactionTimeout()) < 0 || e instanceof FencedInstanceIdException) {
                            throw e;
                        }
                        // The coordinator aborted the transaction for its age and bumped the producer's epoch:
                        // nothing of it is visible. A new producer does the pages again.
                        metrics.failure("transaction-timeout");
                        log.warn("a transaction was open {} ms, past transaction.timeout.ms, and was aborted by the "
                                + "coordinator; its {} page(s) are done again with a new producer", open.toMillis(),
                                records.count());
                        replaceProducer();
                        rewind(records);
                        sleep(backoff(failures++), running);
                        continue;
                    }
                    abortQuietly();
                    rewind(records);
                    metrics.failure("kafka");
                    Duration pause = backoff(failures++);
                    log.warn("a batch of {} bucket task(s) failed and is tried again in {} ms: {}", records.count(),
                            pause.toMillis(), e.toString());
                    sleep(pause, running);
                }
            }
        } finally {
            producer.close(Duration.ofSeconds(5));
        }
    }

    /** A page whose transaction committed, for the walk state and metrics. */
    private record Committed(BucketTask task, PageWorker.PageResult result, Duration took) {
    }

    /**
     * Why a page waits to be tried again, and how often it has: the filer failed on it in a way that may pass, or its
     * walk failed and ZooKeeper did not take the failure.
     *
     * @param where the {@code page.failures} tag
     * @param what  what happened, for the log
     */
    private record Retry(String where, String what, Exception cause, int attempts) {

        Retry worse(Retry other) {
            return other == null || attempts > other.attempts ? this : other;
        }
    }

    /**
     * What one transaction did: the pages it committed and, when a page waits, why and how long to wait before it is
     * tried again.
     */
    private record Batch(List<Committed> done, Retry retry, Duration retryAfter) {
    }

    /** Thrown by {@link #walk} for a page to be tried again: the filer failed on it in a way that may pass. */
    private static final class TryAgain extends RuntimeException {
        final Retry retry;

        TryAgain(SeaweedCallException cause, int attempts) {
            super(cause);
            this.retry = new Retry("filer", "failed on the filer", cause, attempts);
        }
    }

    private Batch commit(ConsumerRecords<byte[], byte[]> records) {
        producer.beginTransaction();
        transactionBegan = System.nanoTime();
        List<Committed> done = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<TopicPartition, Long> left = new LinkedHashMap<>();
        Retry retry = null;
        boolean cut = false;
        for (ConsumerRecord<byte[], byte[]> record : records) {
            TopicPartition tp = new TopicPartition(record.topic(), record.partition());
            if (left.containsKey(tp)) {
                continue;
            }
            if ((!done.isEmpty() || !offsets.isEmpty())
                    && System.nanoTime() - transactionBegan > limits.transactionBound().toNanos()) {
                // Out of time: this record and the rest of its partition go into the next transaction.
                left.put(tp, record.offset());
                cut = true;
                continue;
            }
            BucketTask task = decode(record);
            if (task == null) {
                offsets.put(tp, new OffsetAndMetadata(record.offset() + 1));
                continue;
            }
            Instant started = clock.instant();
            PageWorker.PageResult result;
            try {
                result = walk(task);
            } catch (TryAgain again) {
                // This page, and the rest of its partition in order behind it, wait; other partitions go on.
                left.put(tp, record.offset());
                retry = again.retry.worse(retry);
                continue;
            }
            if (result.failed()) {
                Retry unrecordedFailure = recordFailure(task, result);
                if (unrecordedFailure != null) {
                    left.put(tp, record.offset());
                    retry = unrecordedFailure.worse(retry);
                    continue;
                }
            }
            offsets.put(tp, new OffsetAndMetadata(record.offset() + 1));
            send(task, result);
            done.add(new Committed(task, result, Duration.between(started, clock.instant())));
        }
        if (offsets.isEmpty()) {
            producer.abortTransaction();
        } else {
            producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
            commitTransaction();
        }
        left.forEach((tp, offset) -> {
            if (consumer.assignment().contains(tp)) {
                consumer.seek(tp, offset);
            }
        });
        if (cut) {
            metrics.transactionCut();
        }
        for (Committed c : done) {
            faults.remove(pageKey(c.task()));
            unrecorded.remove(pageKey(c.task()));
        }
        return retry == null ? new Batch(done, null, Duration.ZERO)
                : new Batch(done, retry, backoff(retry.attempts() - 1));
    }

    /**
     * Writes the walk's failure to its state, before the page commits: a failed page commits with no continuation,
     * and a failure written after it could be lost with the ZooKeeper session, leaving the walk "under way" with no
     * task behind it — a recovery walk's re-arms past the page never sent.
     *
     * @return {@code null} when written; else why the page waits
     */
    private Retry recordFailure(BucketTask task, PageWorker.PageResult result) {
        try {
            progress.failed(task, result.failure());
            unrecorded.remove(pageKey(task));
            return null;
        } catch (Exception e) {
            return new Retry("zookeeper", "stopped its walk, which the walk state could not record", e,
                    unrecorded.merge(pageKey(task), 1, Integer::sum));
        }
    }

    /**
     * One page. A failure that may pass is thrown as {@link TryAgain}, so the page is tried again after a pause; one
     * that cannot be walked becomes the end of its walk, as failed.
     */
    private PageWorker.PageResult walk(BucketTask task) {
        if (progress.superseded(task)) {
            return new PageWorker.PageResult(new PageOutput(), Optional.empty(), "superseded");
        }
        try {
            return worker.apply(task);
        } catch (SeaweedCallException e) {
            if (e.kind() == FailureKind.PERMANENT) {
                faults.remove(pageKey(task));
                return failed(task, "the filer refused: " + e.getMessage(), false);
            }
            int attempts = faults.merge(pageKey(task), 1, Integer::sum);
            if (e.kind() == FailureKind.TRANSIENT || attempts < limits.faultMaxAttempts()) {
                throw new TryAgain(e, attempts);
            }
            faults.remove(pageKey(task));
            return failed(task, "the filer failed " + attempts + " times: " + e.getMessage(), true);
        } catch (KafkaException e) {
            throw e;
        } catch (RuntimeException e) {
            // A task this code cannot walk would fail the same way on every retry and hold its partition for ever.
            log.error("bucket {}: walk {} cannot walk its page at {}", task.target().bucket(), task.details().scanId(),
                    task.details().marker(), e);
            return failed(task, "it could not be walked: " + e, false);
        }
    }

    /**
     * A walk of the whole bucket stops here and is resumed from this page (its state says where, see
     * {@link #afterCommit}); a walk of one key that may succeed later is sent again instead, as its own continuation.
     */
    private static PageWorker.PageResult failed(BucketTask task, String why, boolean mayPass) {
        boolean oneKey = task.details().prefix() != null && !task.details().prefix().isEmpty();
        Optional<BucketTask> again = oneKey && mayPass ? Optional.of(task) : Optional.empty();
        return new PageWorker.PageResult(new PageOutput(), again, "failed", why);
    }

    private static String pageKey(BucketTask task) {
        return task.details().scanId() + "@" + task.details().marker();
    }

    /**
     * Commits, repeating the commit itself when it times out: the transaction may have committed already, and
     * aborting and redoing its pages then would publish them twice.
     */
    private void commitTransaction() {
        for (int attempt = 1; ; attempt++) {
            try {
                producer.commitTransaction();
                return;
            } catch (org.apache.kafka.common.errors.TimeoutException e) {
                if (attempt >= 10) {
                    throw new IllegalStateException("the transaction's commit timed out " + attempt + " times", e);
                }
                log.warn("commit timed out, trying the commit again: {}", e.getMessage());
            }
        }
    }

    private BucketTask decode(ConsumerRecord<byte[], byte[]> record) {
        try {
            BucketTask task = decoder.deserialize(record.topic(), record.value());
            if (task == null || task.target() == null || task.target().bucket() == null
                    || task.target().bucket().isEmpty() || task.details() == null
                    || task.details().scanId() == null || task.details().mode() == null) {
                throw new IllegalArgumentException("not a complete bucket task");
            }
            return task;
        } catch (RuntimeException e) {
            metrics.unreadable();
            log.error("{}-{}@{} is not a bucket task and is skipped: {}", record.topic(), record.partition(),
                    record.offset(), e.getMessage());
            return null;
        }
    }

    private void send(BucketTask task, PageWorker.PageResult result) {
        PageOutput out = result.output();
        for (var t : out.tasks) {
            producer.send(topics.objectTasks().record(t.partition(), t.key(), t.value()));
        }
        for (var r : out.rearms) {
            producer.send(topics.rearm().record(r.partition(), r.key(), r.value()));
        }
        result.next().ifPresent(next -> producer.send(topics.bucketTasks().record(next.target().bucket(), next)));
    }

    private void afterCommit(Committed c) {
        BucketTask task = c.task();
        PageWorker.PageResult result = c.result();
        String mode = task.details().mode().name();
        metrics.page(mode, result.output(), c.took());
        if (result.failed()) {
            metrics.walkFailed(task.target().bucket(), mode);
            boolean again = result.next().isPresent();
            log.error("bucket {}: walk {} ({}) failed at {}: {}; {}", task.target().bucket(), task.details().scanId(),
                    mode, task.details().marker() == null ? "its start" : task.details().marker(), result.failure(),
                    again ? "the walk of the key is sent again" : task.details().prefix() == null
                            || task.details().prefix().isEmpty() ? "the next conductor pass resumes it from there"
                            : "it is given up");
            return;
        }
        boolean last = result.next().isEmpty();
        var took = progress.paged(task, result.output().handled, result.output().nullMarkers, result.next());
        if (last) {
            String reason = result.endReason() == null ? "finished" : result.endReason();
            metrics.walkEnded(task.target().bucket(), mode, reason, took.orElse(null));
            log.info("bucket {}: walk {} ({}) ended: {}", task.target().bucket(), task.details().scanId(), mode,
                    reason);
        }
    }

    private void replaceProducer() {
        try {
            producer.close(Duration.ZERO);
        } catch (RuntimeException e) {
            log.debug("closing the timed-out producer: {}", e.toString());
        }
        producer = producers.get();
    }

    private void abortQuietly() {
        try {
            producer.abortTransaction();
        } catch (RuntimeException e) {
            if (KafkaFailure.of(e) == KafkaFailure.FENCED) {
                throw e;
            }
            log.debug("abort after a failed batch: {}", e.toString());
        }
    }

    /** Puts each partition of the batch back to the batch's first record, so the next poll returns it again. */
    private void rewind(ConsumerRecords<byte[], byte[]> records) {
        for (TopicPartition partition : records.partitions()) {
            if (consumer.assignment().contains(partition)) {
                consumer.seek(partition, records.records(partition).get(0).offset());
            }
        }
    }

    private Duration backoff(int failures) {
        long millis = FIRST_BACKOFF.toMillis() << Math.min(failures, 16);
        return Duration.ofMillis(Math.min(millis, limits.backoffMax().toMillis()));
    }

    private static void sleep(Duration pause, BooleanSupplier running) {
        long end = System.nanoTime() + pause.toNanos();
        try {
            while (running.getAsBoolean() && System.nanoTime() < end) {
                Thread.sleep(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
