package io.tidemark.objectprocessor;

import io.github.resilience4j.core.IntervalFunction;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.DeadLetter;
import io.tidemark.objectprocessor.OutcomePolicy.Decision;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.NoOffsetForPartitionException;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The object processor's consumer loop. One thread owns the consumer and all bookkeeping; calls, backoff timers and
 * record acknowledgements run elsewhere and hand their results back through a mailbox the loop drains between polls.
 *
 * <p>Per partition, tasks of one object (one record key) form a lane that runs in order, one call at a time; lanes of
 * different objects run concurrently, up to {@code maxInFlight} calls. A task is finished when its outcome, and its
 * dead letter if it is parked, are acknowledged by Kafka; the committed offset is the lowest unfinished one, so a
 * task held by RETRY_LATER holds its partition's cursor (visible as lag) while other objects go on. A revoked
 * partition's unfinished tasks are simply left to the next owner, which repeats them: the gateway's identity check
 * makes a repeated delete a NOOP.
 *
 * <p>While the cluster is paused, or the controls are unknown, every task is held before it is called, unrecorded, and
 * looked at again whenever the controls change: held, it holds its partition's cursor like any unfinished task, so the
 * pause shows as lag and loses nothing. A task of a bucket paused on its own is not held — its partition's cursor is
 * every other bucket's too — but recorded as PAUSED and finished, its bucket owed a recovery walk for its resume
 * ({@link OwedWalks}), as a dry-run task is.
 */
public final class TaskLoop implements ConsumerRebalanceListener {

    private static final Logger log = LoggerFactory.getLogger(TaskLoop.class);
    private static final long GAUGE_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private static final long MAX_POLL_GAP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long OWE_RETRY_MILLIS = 1_000;

    private final Consumer<byte[], byte[]> consumer;
    private final String topic;
    private final TaskDecoder decoder;
    private final ActionRunner runner;
    private final TaskRecorder recorder;
    private final ObjectProcessorSettings settings;
    private final ObjectProcessorMetrics metrics;
    private final Lateness lateness;
    private final ScheduledExecutorService scheduler;
    private final Clock clock;
    private final IntervalFunction retryLaterBackoff;
    private final BucketControls controls;
    private final OwedWalks owedWalks;

    private final Map<TopicPartition, PartitionWork> work = new HashMap<>();
    /** Lane heads ready to be called, a bucket at a time in turn. */
    private final ReadyByBucket ready = new ReadyByBucket();
    /** Tasks held by a pause, looked at again when the controls change. */
    private final List<PendingTask> paused = new ArrayList<>();
    /** Buckets whose hold was logged since the controls last changed: one line per bucket, not per task. */
    private final Set<String> holdLogged = new HashSet<>();
    private long controlsSeen;
    private final ConcurrentLinkedQueue<Runnable> mailbox = new ConcurrentLinkedQueue<>();
    private final Semaphore arrived = new Semaphore(0);
    private final OffsetCommits commits;
    private final RateShare rateShare;
    private int inFlight;
    private int writing;
    private int buffered;
    private long lastGaugesNanos;
    private long lastPollNanos;
    private volatile boolean polling;

    TaskLoop(Consumer<byte[], byte[]> consumer, String topic, TaskDecoder decoder, DeleteCaller caller,
             ActionRunner runner, TaskRecorder recorder, ObjectProcessorSettings settings,
             ObjectProcessorMetrics metrics, Lateness lateness, ScheduledExecutorService scheduler, Clock clock,
             BucketControls controls, OwedWalks owedWalks) {
        this.consumer = consumer;
        this.topic = topic;
        this.decoder = decoder;
        this.runner = runner;
        this.recorder = recorder;
        this.settings = settings;
        this.metrics = metrics;
        this.lateness = lateness;
        this.scheduler = scheduler;
        this.clock = clock;
        this.controls = controls;
        this.owedWalks = owedWalks;
        this.controlsSeen = controls.changes();
        this.commits = new OffsetCommits(consumer, settings.commitInterval());
        this.rateShare = new RateShare(settings.deletesPerSecond(), caller, metrics);
        this.retryLaterBackoff = IntervalFunction.ofExponentialRandomBackoff(settings.retryBackoffInitial(), 2.0, 0.5,
                settings.retryBackoffMax());
    }

    /** Runs until {@code keepRunning} turns false, then lets calls in flight finish (bounded) and commits. */
    public void run(BooleanSupplier keepRunning) {
        rateShare.topicPartitions(consumer.partitionsFor(topic).size());
        consumer.subscribe(List.of(topic), this);
        try {
            while (keepRunning.getAsBoolean()) {
                step();
            }
            drain(System.nanoTime() + settings.shutdownTimeout().toNanos() / 2);
        } finally {
            polling = false;
            commit(work.keySet(), true);
        }
    }

    /** True once the loop polls: it has joined the group (with or without partitions). */
    boolean polling() {
        return polling;
    }

    private void step() {
        flowControl();
        Duration timeout = Duration.ofMillis(100);
        if (inFlight > 0 || writing > 0 || !mailbox.isEmpty()) {
            // Answers are due: wait for the first of them rather than inside poll, which they cannot interrupt.
            awaitArrival(Duration.ofMillis(5));
            timeout = Duration.ZERO;
        }
        // A poll costs more than an answer: skip it while enough work is queued, but never for long.
        if (ready.size() < settings.maxInFlight() || System.nanoTime() - lastPollNanos >= MAX_POLL_GAP_NANOS) {
            lastPollNanos = System.nanoTime();
            for (ConsumerRecord<byte[], byte[]> record : poll(timeout)) {
                accept(record);
            }
            polling = true;
        }
        runMailbox();
        releaseResumed();
        dispatchReady();
        if (commits.due(System.nanoTime())) {
            commit(work.keySet(), false);
        }
        if (System.nanoTime() - lastGaugesNanos >= GAUGE_INTERVAL_NANOS) {
            publishGauges();
        }
    }

    /**
     * Polls with {@code auto.offset.reset=none}: a partition the group never committed starts at the beginning of its
     * log, as a new group should; a committed position the log no longer holds means retention deleted tasks nobody
     * processed (their timers are gone), which is said loudly and counted before the loop resumes at the oldest task
     * left. Either way it is a decision made here, never a silent reset.
     */
    private Iterable<ConsumerRecord<byte[], byte[]>> poll(Duration timeout) {
        try {
            return consumer.poll(timeout);
        } catch (NoOffsetForPartitionException e) {
            log.info("no committed position for {}: starting at the beginning of the log", e.partitions());
            consumer.seekToBeginning(e.partitions());
        } catch (OffsetOutOfRangeException e) {
            Map<TopicPartition, Long> lost = e.offsetOutOfRangePartitions();
            Map<TopicPartition, Long> oldest = consumer.beginningOffsets(lost.keySet());
            log.error("tasks were deleted by retention before they were processed: {} (committed position → oldest "
                    + "offset left: {}); their expirations are lost unless a walk finds them again. Raise "
                    + "topic.tasks.retention.ms, and see docs/operations.md#tidemarktaskslost", lost.keySet(),
                    lost.entrySet().stream().map(en -> en.getKey().partition() + ":" + en.getValue() + "→"
                            + oldest.get(en.getKey())).toList());
            metrics.offsetsLost(lost.size());
            consumer.seekToBeginning(lost.keySet());
        }
        return List.of();
    }

    private void awaitArrival(Duration atMost) {
        try {
            if (mailbox.isEmpty()) {
                arrived.tryAcquire(atMost.toNanos(), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void flowControl() {
        if (buffered >= settings.maxBuffered()) {
            consumer.pause(consumer.assignment());
        } else if (buffered < settings.maxBuffered() / 2 && !consumer.paused().isEmpty()) {
            consumer.resume(consumer.paused());
        }
    }

    private void accept(ConsumerRecord<byte[], byte[]> record) {
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        PartitionWork owner = work.get(tp);
        if (owner == null) {
            return;
        }
        buffered++;
        TaskDecoder.Decoded decoded = decoder.decode(record.topic(), record.value());
        if (decoded instanceof TaskDecoder.Valid valid) {
            String lane = record.key() != null ? new String(record.key(), StandardCharsets.UTF_8)
                    : valid.task().target().bucket() + "/" + valid.task().target().objectPath();
            PendingTask task = new PendingTask(owner, tp, record.offset(), lane, valid.task(), valid.kind(),
                    valid.request());
            if (owner.enqueue(task)) {
                ready.addLast(task);
            }
        } else {
            parkUnsent(record, owner, (TaskDecoder.Invalid) decoded);
        }
    }

    /** A record that is not a valid task goes to the dead-letter topic as it is, and its partition goes on. */
    private void parkUnsent(ConsumerRecord<byte[], byte[]> record, PartitionWork owner, TaskDecoder.Invalid invalid) {
        TopicPartition tp = new TopicPartition(record.topic(), record.partition());
        String source = record.topic() + "/" + record.partition() + "@" + record.offset();
        metrics.invalid();
        log.warn("{}: not a valid task, parked unsent: {}", source, invalid.reason());
        owner.read(record.offset());
        Instant now = clock.instant();
        String raw = invalid.task() == null && record.value() != null
                ? Base64.getEncoder().encodeToString(record.value()) : null;
        DeadLetter letter = new DeadLetter(invalid.task(), "INVALID", invalid.reason(), 0, now, now, source, raw);
        write(recorder.park(record.partition(), keyOf(record), letter, now), ignored -> {
            if (work.get(tp) == owner) {
                metrics.parked(invalid.task() == null ? null : invalid.task().kind(), "INVALID");
                owner.finish(record.offset());
                buffered--;
            }
        });
    }

    private void dispatchReady() {
        while (inFlight < settings.maxInFlight() && !ready.isEmpty()) {
            PendingTask task = ready.pollFirst();
            if (work.get(task.partition) != task.owner) {
                continue;
            }
            BucketControls.Gate gate = controls.gate(task.task.target().bucket());
            if (gate == BucketControls.Gate.HOLD) {
                holdPaused(task);
                continue;
            }
            if (gate == BucketControls.Gate.DEFER) {
                // No call to make: the task is recorded and finished as any answered one, its bucket owed a walk.
                inFlight++;
                Decision deferred = OutcomePolicy.deferred(task.task.target().bucket());
                post(() -> answered(task, task.attempts, deferred, null));
                continue;
            }
            int attempt = ++task.attempts;
            inFlight++;
            runner.run(task, attempt).whenComplete((decision, error) ->
                    post(() -> answered(task, attempt, decision, error)));
        }
    }

    private void answered(PendingTask task, int attempt, Decision decision, Throwable error) {
        inFlight--;
        if (error != null) {
            // Not an answer (the attempt was cancelled at shutdown): the task stays unfinished.
            log.debug("attempt for {} ended without an answer: {}", task.source(), DeleteCaller.cause(error).toString());
            return;
        }
        Instant now = clock.instant();
        Instant answeredAt = lateness.now();
        if (decision.verdict() == OutcomePolicy.Verdict.HOLD) {
            // Paused between dispatch and call: no attempt was made, and none is recorded.
            task.attempts--;
            if (work.get(task.partition) == task.owner) {
                holdPaused(task);
            }
            return;
        }
        metrics.attempt(task.kind.name(), decision.outcome());
        CompletableFuture<Void> audit = recorder.attempt(task.task, task.partition.partition(), task.lane,
                decision.outcome(), decision.reason(), attempt, now);
        boolean owned = work.get(task.partition) == task.owner;
        switch (decision.verdict()) {
            case COMPLETE -> {
                if (decision.outcome().equals(OutcomePolicy.NOOP_RULE_CHANGED)) {
                    log.info("{}: {} {} {} not sent: {}", task.source(), task.kind, task.task.target().bucket(),
                            task.task.target().objectPath(), decision.reason());
                }
                if (decision.owesWalk()) {
                    finishOwingAWalk(task, decision, audit, answeredAt);
                    return;
                }
                CompletableFuture<Void> recorded = audit;
                if (decision.walkTheKey()) {
                    BucketTask walk = walkOf(task);
                    metrics.walkRequested(decision.outcome());
                    log.info("{}: {} answered {} {} for {} {}; a walk of the key ({}) evaluates it again", task.source(),
                            task.kind, decision.outcome(), decision.reason(), task.task.target().bucket(),
                            task.task.target().objectPath(), walk.details().scanId());
                    recorded = CompletableFuture.allOf(audit, recorder.walk(walk));
                }
                write(recorded, e -> {
                    finished(task, decision, answeredAt);
                    finishInLane(task);
                });
            }
            case RETRY_LATER -> {
                write(audit, e -> { });
                task.firstFailure = task.firstFailure == null ? now : task.firstFailure;
                task.lastFailure = now;
                task.owner.hold(task, now);
                long delay;
                if (decision.retryIn() != null) {
                    // Waiting for a due instant is no attempt at the gateway: it counts nothing towards parking.
                    task.attempts--;
                    delay = decision.retryIn().toMillis();
                } else {
                    delay = retryLaterBackoff.apply(attempt);
                }
                log.info("{}: {} answered {} ({}), attempt {}; calling again in {} ms", task.source(), task.kind,
                        decision.outcome(), decision.reason(), attempt, delay);
                if (owned) {
                    scheduler.schedule(() -> post(() -> ready.addLast(task)), delay, TimeUnit.MILLISECONDS);
                }
            }
            case PARK -> {
                write(audit, e -> { });
                task.firstFailure = task.firstFailure == null ? now : task.firstFailure;
                task.lastFailure = now;
                log.warn("{}: parked {} {} {} after {} attempt(s): {} {}", task.source(), task.kind,
                        task.task.target().bucket(), task.task.target().objectPath(), attempt, decision.outcome(),
                        decision.reason());
                DeadLetter letter = new DeadLetter(task.task, decision.outcome(), decision.reason(), attempt,
                        task.firstFailure, now, task.source(), null);
                write(recorder.park(task.partition.partition(), task.lane, letter, now), e -> {
                    metrics.parked(task.kind.name(), decision.outcome());
                    finishInLane(task);
                });
            }
        }
    }

    /**
     * Finishes a task that was only recorded (PAUSED, DRY_RUN) once its bucket is noted as owed a walk. A note ZooKeeper
     * does not take leaves the task unfinished and tries it again in a second: finishing it without the note would lose
     * its expiration, and failing the service for it would stop every other bucket.
     */
    private void finishOwingAWalk(PendingTask task, Decision decision, CompletableFuture<Void> audit,
                                  Instant answeredAt) {
        String bucket = task.task.target().bucket();
        writing++;
        owedWalks.owe(bucket, decision.outcome()).whenComplete((ignored, error) -> post(() -> {
            writing--;
            if (error == null) {
                write(audit, e -> {
                    finished(task, decision, answeredAt);
                    finishInLane(task);
                });
                return;
            }
            write(audit, e -> { });
            log.warn("{}: bucket {} could not be noted as owed a walk ({}); the task stays unfinished and is tried "
                    + "again", task.source(), bucket, DeleteCaller.cause(error).toString());
            if (work.get(task.partition) == task.owner) {
                scheduler.schedule(() -> post(() -> ready.addLast(task)), OWE_RETRY_MILLIS, TimeUnit.MILLISECONDS);
            }
        }));
    }

    /**
     * Holds a task while the cluster is paused (or the gateway does not serve LifecycleDelete), until the controls or
     * the gateway's state change; its lane and partition's cursor wait too.
     */
    private void holdPaused(PendingTask task) {
        paused.add(task);
        String bucket = task.task.target().bucket();
        if (holdLogged.add(bucket)) {
            log.info("bucket {}: {}; holding its tasks until then", bucket, controls.holdReason());
        }
    }

    /** Once the controls change, every held task goes back to be dispatched, which holds it again if still paused. */
    private void releaseResumed() {
        long changes = controls.changes();
        if (changes == controlsSeen) {
            return;
        }
        controlsSeen = changes;
        holdLogged.clear();
        for (PendingTask task : paused) {
            if (work.get(task.partition) == task.owner) {
                ready.addLast(task);
            }
        }
        paused.clear();
    }

    /**
     * A recovery walk of the task's key alone: the walker lists it as it is now, sends a task for what is due and
     * free, and re-arms the timer of what is not (a lock waited out, a lifted hold's update event arming it again).
     */
    static BucketTask walkOf(PendingTask task) {
        String bucket = task.task.target().bucket();
        String key = task.lane.startsWith(bucket + "/") ? task.lane.substring(bucket.length() + 1)
                : task.task.target().objectPath();
        return new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket), new BucketTask.Details(
                OutcomePolicy.RECHECK_SCAN + task.task.actionId(), BucketTask.Mode.recovery, key, null));
    }

    private void finished(PendingTask task, Decision decision, Instant answeredAt) {
        metrics.finished(task.kind.name(), decision.outcome());
        lateness.finished(task.task, decision.outcome(), answeredAt);
    }

    private void finishInLane(PendingTask task) {
        if (work.get(task.partition) != task.owner) {
            return;
        }
        buffered--;
        task.owner.finishHead(task).ifPresent(ready::addLast);
    }

    /**
     * Runs {@code then} on the loop's thread once a record is acknowledged. A record Kafka would not take after its
     * own retries means the cluster is unusable: the loop stops and the service fails, leaving the task unfinished
     * for the next run rather than finishing it without its trail.
     */
    private void write(CompletableFuture<Void> sent, java.util.function.Consumer<Void> then) {
        writing++;
        sent.whenComplete((ignored, error) -> post(() -> {
            writing--;
            if (error != null) {
                throw new IllegalStateException("cannot write the record of a finished task: " + error, error);
            }
            then.accept(null);
        }));
    }

    /** Hands work to the loop's thread and wakes it if it waits for answers. */
    private void post(Runnable work) {
        mailbox.add(work);
        arrived.release();
    }

    private void runMailbox() {
        arrived.drainPermits();
        for (Runnable r = mailbox.poll(); r != null; r = mailbox.poll()) {
            r.run();
        }
    }

    private void drain(long deadlineNanos) {
        log.info("stopping: waiting for {} call(s) in flight and {} record(s) being written", inFlight, writing);
        while ((inFlight > 0 || writing > 0) && System.nanoTime() < deadlineNanos) {
            runMailbox();
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        runMailbox();
        if (inFlight > 0 || writing > 0) {
            log.warn("stopped with {} call(s) unanswered; their tasks stay uncommitted and run again on restart",
                    inFlight);
        }
    }

    private void commit(Collection<TopicPartition> partitions, boolean sync) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        for (TopicPartition tp : partitions) {
            PartitionWork w = work.get(tp);
            if (w != null) {
                w.committable().ifPresent(offset -> positions.put(tp, offset));
            }
        }
        commits.commit(positions, sync);
    }

    private void publishGauges() {
        lastGaugesNanos = System.nanoTime();
        metrics.inFlight(inFlight);
        metrics.oldestCall(runner.oldestSeconds());
        metrics.buffered(buffered);
        metrics.paused(paused.size(), controls.known(), controls.clusterPaused());
        Instant now = clock.instant();
        Map<Integer, Duration> held = new HashMap<>();
        work.forEach((tp, w) -> held.put(tp.partition(), w.held(now)));
        metrics.held(held);
        lateness.oldestDue(work.values().stream().map(PartitionWork::oldestDue).flatMap(Optional::stream)
                .min(Instant::compareTo));
    }

    private static String keyOf(ConsumerRecord<byte[], byte[]> record) {
        return record.key() == null ? "" : new String(record.key(), StandardCharsets.UTF_8);
    }

    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            work.put(tp, new PartitionWork());
        }
        log.info("assigned {} partition(s) of {}: {}", partitions.size(), topic, partitions);
        rateShare.held(work.size());
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        commit(partitions, true);
        release(partitions);
    }

    @Override
    public void onPartitionsLost(Collection<TopicPartition> partitions) {
        release(partitions);
    }

    private void release(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            PartitionWork w = work.remove(tp);
            if (w != null) {
                buffered -= w.unfinished();
            }
        }
        commits.forget(partitions);
        ready.removeIf(task -> partitions.contains(task.partition));
        paused.removeIf(task -> partitions.contains(task.partition));
        if (!partitions.isEmpty()) {
            log.info("released {} partition(s) of {}: {}", partitions.size(), topic, partitions);
        }
        rateShare.held(work.size());
    }
}
