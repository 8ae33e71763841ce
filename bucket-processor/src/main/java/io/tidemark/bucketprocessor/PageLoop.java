package io.tidemark.bucketprocessor;

import io.tidemark.messages.BucketTask;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.topics.TopicRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.FencedInstanceIdException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.Deserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bucket processor's consume-transform-produce loop. Each poll's bucket tasks (one page each) are walked, and
 * their object tasks, re-arm records and continuation tasks are sent and committed together with the consumed
 * offsets in one Kafka transaction: a crash at any point redoes the pages whose transaction did not commit, and the
 * committed output holds each page once.
 *
 * <p>Errors: a record that is not a bucket task is logged, counted and consumed (never a stuck partition); a filer
 * refusal that repeating cannot fix ends that task's walk with a log line; a filer or Kafka failure that may pass
 * aborts the transaction, rewinds to the batch's first offsets and tries again after a growing pause; a fenced
 * producer (another instance took over) ends the loop with an exception, as nothing it sends can commit.
 */
final class PageLoop {

    private static final Logger log = LoggerFactory.getLogger(PageLoop.class);
    private static final Duration FIRST_BACKOFF = Duration.ofMillis(200);

    private final Consumer<byte[], byte[]> consumer;
    private final Producer<byte[], byte[]> producer;
    private final TopicRegistry topics;
    private final Deserializer<BucketTask> decoder;
    private final java.util.function.Function<BucketTask, PageWorker.PageResult> worker;
    private final WalkProgress progress;
    private final BucketProcessorMetrics metrics;
    private final Duration backoffMax;
    private final Clock clock;
    private volatile boolean polling;

    PageLoop(Consumer<byte[], byte[]> consumer, Producer<byte[], byte[]> producer, TopicRegistry topics,
             java.util.function.Function<BucketTask, PageWorker.PageResult> worker, WalkProgress progress,
             BucketProcessorMetrics metrics, Duration backoffMax, Clock clock) {
        this.consumer = consumer;
        this.producer = producer;
        this.topics = topics;
        this.decoder = topics.bucketTasks().valueSerde().deserializer();
        this.worker = worker;
        this.progress = progress;
        this.metrics = metrics;
        this.backoffMax = backoffMax;
        this.clock = clock;
    }

    boolean polling() {
        return polling;
    }

    /** Runs until {@code running} turns false; the producer must have had {@code initTransactions()}. */
    void run(BooleanSupplier running) {
        consumer.subscribe(List.of(topics.bucketTasks().name()));
        int failures = 0;
        while (running.getAsBoolean()) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(200));
            polling = true;
            if (records.isEmpty()) {
                continue;
            }
            try {
                List<Committed> committed = commit(records);
                failures = 0;
                for (Committed c : committed) {
                    afterCommit(c);
                }
            } catch (ProducerFencedException | InvalidProducerEpochException | FencedInstanceIdException fenced) {
                throw fenced;
            } catch (KafkaException | SeaweedCallException e) {
                abortQuietly();
                rewind(records);
                metrics.failure(e instanceof SeaweedCallException ? "filer" : "kafka");
                Duration pause = backoff(failures++);
                log.warn("a batch of {} bucket task(s) failed and is tried again in {} ms: {}", records.count(),
                        pause.toMillis(), e.toString());
                sleep(pause, running);
            }
        }
    }

    /** A page whose transaction committed, for the walk state and metrics. */
    private record Committed(BucketTask task, PageWorker.PageResult result, Duration took) {
    }

    private List<Committed> commit(ConsumerRecords<byte[], byte[]> records) {
        producer.beginTransaction();
        List<Committed> done = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (ConsumerRecord<byte[], byte[]> record : records) {
            offsets.put(new TopicPartition(record.topic(), record.partition()),
                    new OffsetAndMetadata(record.offset() + 1));
            BucketTask task = decode(record);
            if (task == null) {
                continue;
            }
            Instant started = clock.instant();
            PageWorker.PageResult result;
            try {
                result = worker.apply(task);
            } catch (SeaweedCallException e) {
                if (e.kind() != FailureKind.PERMANENT) {
                    throw e;
                }
                log.error("bucket {}: the filer refused walk {} at {} ({}); the walk ends here", task.target().bucket(),
                        task.details().scanId(), task.details().marker(), e.getMessage());
                result = new PageWorker.PageResult(new PageOutput(), java.util.Optional.empty(), "filer-refused");
            } catch (KafkaException e) {
                throw e;
            } catch (RuntimeException e) {
                // A task this code cannot walk would fail the same way on every retry and hold its partition for
                // ever: end that walk, loudly, and go on with the others.
                log.error("bucket {}: walk {} failed at {} and ends here: {}", task.target().bucket(),
                        task.details().scanId(), task.details().marker(), e.toString(), e);
                result = new PageWorker.PageResult(new PageOutput(), java.util.Optional.empty(), "failed");
            }
            send(task, result);
            done.add(new Committed(task, result, Duration.between(started, clock.instant())));
        }
        producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
        commitTransaction();
        return done;
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
        boolean last = result.next().isEmpty();
        var took = progress.paged(task, result.output().handled, last);
        if (last) {
            String reason = result.endReason() == null ? "finished" : result.endReason();
            metrics.walkEnded(task.target().bucket(), mode, reason, took.orElse(null));
            log.info("bucket {}: walk {} ({}) ended: {}", task.target().bucket(), task.details().scanId(), mode,
                    reason);
        }
    }

    private void abortQuietly() {
        try {
            producer.abortTransaction();
        } catch (ProducerFencedException | InvalidProducerEpochException fenced) {
            throw fenced;
        } catch (RuntimeException e) {
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
        return Duration.ofMillis(Math.min(millis, backoffMax.toMillis()));
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
