package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.topics.TopicRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The consume-transform-produce loop without a broker (Kafka's mock clients): what commits, and what does not. */
class PageLoopTest {

    private final TopicRegistry topics = TopicRegistry.from(new TidemarkConfig(Map.of("shard.bits", "2")));
    private final TopicPartition partition = new TopicPartition(topics.bucketTasks().name(), 0);
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    private final MockProducer<byte[], byte[]> producer = producer();
    private final BucketProcessorMetrics metrics = new BucketProcessorMetrics(new SimpleMeterRegistry());
    private final RecordingProgress progress = new RecordingProgress();
    private PageLoop.Limits limits = new PageLoop.Limits(Duration.ofMillis(10), 3, Duration.ofSeconds(10),
            Duration.ofMinutes(1));

    private static MockProducer<byte[], byte[]> producer() {
        return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    /** What the loop told the walk states: which walks finished and which failed. */
    private static class RecordingProgress extends WalkProgress {
        final List<String> finished = new ArrayList<>();
        final List<String> failed = new ArrayList<>();

        RecordingProgress() {
            super(null, Clock.systemUTC());
        }

        @Override
        Optional<Duration> paged(BucketTask task, long handled, long nullMarkers, Optional<BucketTask> next) {
            if (next.isEmpty()) {
                finished.add(task.target().bucket());
            }
            return Optional.empty();
        }

        @Override
        void failed(BucketTask task, String why) {
            failed.add(task.target().bucket() + ": " + why);
        }

        @Override
        boolean superseded(BucketTask task) {
            return false;
        }
    }

    private static BucketTask task(String bucket) {
        return new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                new BucketTask.Details("scan-" + bucket, BucketTask.Mode.steady, "", null));
    }

    private static PageWorker.PageResult oneTask(String bucket) {
        PageOutput out = new PageOutput();
        out.task(0, bucket + "/k", new ObjectTask("walker-1", "expire", "EXPIRATION_DATE",
                new ObjectTask.Target(bucket, "k", ""), new ObjectTask.Details(null, "r", "00", Instant.EPOCH,
                "walker", "scan-" + bucket)));
        return new PageWorker.PageResult(out, Optional.empty(), null);
    }

    private final List<byte[]> offered = new ArrayList<>();

    private void offer(BucketTask task) {
        offered.add(topics.bucketTasks().valueSerde().serializer().serialize("t", task));
    }

    private void run(java.util.function.Function<BucketTask, PageWorker.PageResult> worker, int polls) {
        run(worker, polls, () -> {
            producer.initTransactions();
            return producer;
        });
    }

    /** Runs the loop for {@code polls} polls over the offered records, all on partition 0 from offset 0. */
    private void run(java.util.function.Function<BucketTask, PageWorker.PageResult> worker, int polls,
                     Supplier<Producer<byte[], byte[]>> producers) {
        run(worker, polls, producers, progress);
    }

    private void run(java.util.function.Function<BucketTask, PageWorker.PageResult> worker, int polls,
                     Supplier<Producer<byte[], byte[]>> producers, WalkProgress progress) {
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(partition));
            consumer.updateBeginningOffsets(Map.of(partition, 0L));
            offerFromPosition();
        });
        // Kafka's mock forgets what a poll returned; a real consumer reads again from where it was sought back to.
        for (int i = 1; i < polls; i++) {
            consumer.schedulePollTask(this::offerFromPosition);
        }
        AtomicInteger left = new AtomicInteger(polls);
        PageLoop loop = new PageLoop(consumer, producers, topics, worker, progress, metrics, limits,
                Clock.systemUTC());
        loop.run(() -> left.getAndDecrement() > 0);
    }

    private void offerFromPosition() {
        for (int i = (int) consumer.position(partition); i < offered.size(); i++) {
            consumer.addRecord(new ConsumerRecord<>(partition.topic(), 0, i, "b".getBytes(), offered.get(i)));
        }
    }

    private long lastCommittedOffset(MockProducer<byte[], byte[]> p) {
        var history = p.consumerGroupOffsetsHistory();
        return history.get(history.size() - 1).values().iterator().next().get(partition).offset();
    }

    private static SeaweedCallException filer(Status status) {
        return new SeaweedCallException("ListEntries /buckets/b", status.withDescription("test").asRuntimeException());
    }

    /**
     * A page this code cannot walk (a bug) would fail the same way on every retry: its walk stops as failed — not
     * finished, so walker freshness does not claim it — and the other walks' pages commit.
     */
    @Test
    void shouldStopAWalkThatCannotBeWalkedAsFailedNotFinishedAndCommitTheOthersPages() {
        offer(task("poison"));
        offer(task("good"));
        run(task -> {
            if (task.target().bucket().equals("poison")) {
                throw new IllegalStateException("a bug this task trips");
            }
            return oneTask(task.target().bucket());
        }, 5);

        assertThat(producer.history()).extracting(r -> r.topic()).containsExactly(topics.objectTasks().name());
        assertThat(lastCommittedOffset(producer)).isEqualTo(2);
        assertThat(progress.finished).containsExactly("good");
        assertThat(progress.failed).singleElement().satisfies(f -> assertThat(f).startsWith("poison: ")
                .contains("a bug this task trips"));
    }

    /**
     * Issue 27 item 2: UNKNOWN is how a SeaweedFS filer reports its ordinary errors. A page it fails on is tried again
     * with backoff, a bounded number of times; then the walk stops as failed, never as finished.
     */
    @Test
    void shouldRetryAPageTheFilerFailsOnAndStopItsWalkAsFailedWhenItKeepsFailing() {
        offer(task("flaky"));
        offer(task("broken"));
        AtomicInteger flakyCalls = new AtomicInteger();
        AtomicInteger brokenCalls = new AtomicInteger();
        run(task -> {
            if (task.target().bucket().equals("flaky") && flakyCalls.incrementAndGet() <= 2) {
                throw filer(Status.UNKNOWN);
            }
            if (task.target().bucket().equals("broken")) {
                brokenCalls.incrementAndGet();
                throw filer(Status.INTERNAL);
            }
            return oneTask(task.target().bucket());
        }, 20);

        assertThat(progress.finished).as("the flaky page went through on its third attempt").containsExactly("flaky");
        assertThat(brokenCalls.get()).as("tried the configured number of times").isEqualTo(3);
        assertThat(progress.failed).singleElement().satisfies(f -> assertThat(f).startsWith("broken: ")
                .contains("INTERNAL"));
        assertThat(lastCommittedOffset(producer)).isEqualTo(2);
    }

    /**
     * Issue 43 item 5: once a failed page commits, the walk state is all that is left of its walk. While ZooKeeper
     * cannot take the failure, the page is not committed: it waits, its partition behind it, and is tried again.
     */
    @Test
    void shouldNotCommitAFailedPageUntilItsWalkStateSaysFailed() {
        AtomicInteger refusals = new AtomicInteger(2);
        List<String> recorded = new ArrayList<>();
        WalkProgress zookeeperDown = new RecordingProgress() {
            @Override
            void failed(BucketTask task, String why) {
                if (refusals.getAndDecrement() > 0) {
                    assertThat(producer.consumerGroupOffsetsHistory()).as("nothing committed before the record")
                            .isEmpty();
                    throw new IllegalStateException("ZooKeeper: ConnectionLoss for /lifecycle/data/walks/broken");
                }
                recorded.add(task.target().bucket());
            }
        };
        offer(task("broken"));
        run(task -> {
            throw new IllegalStateException("a bug this task trips");
        }, 20, () -> {
            producer.initTransactions();
            return producer;
        }, zookeeperDown);

        assertThat(recorded).as("recorded once, when ZooKeeper took it").containsExactly("broken");
        assertThat(producer.consumerGroupOffsetsHistory()).as("committed once, after the record").hasSize(1);
        assertThat(lastCommittedOffset(producer)).isEqualTo(1);
    }

    @Test
    void shouldStopAWalkAtOnceWhenTheFilerRefusesItsPage() {
        offer(task("refused"));
        AtomicInteger calls = new AtomicInteger();
        run(task -> {
            calls.incrementAndGet();
            throw filer(Status.PERMISSION_DENIED);
        }, 5);

        assertThat(calls.get()).isEqualTo(1);
        assertThat(progress.failed).singleElement().satisfies(f -> assertThat(f).contains("PERMISSION_DENIED"));
        assertThat(progress.finished).isEmpty();
    }

    /** Issue 27 item 7: a slow filer must not run a transaction into the coordinator's timeout. */
    @Test
    void shouldEndATransactionAtItsTimeBoundAndTakeTheRestOfTheBatchIntoTheNext() {
        limits = new PageLoop.Limits(Duration.ofMillis(10), 3, Duration.ofMillis(100), Duration.ofMinutes(1));
        for (int i = 0; i < 4; i++) {
            offer(task("slow" + i));
        }
        run(task -> {
            try {
                Thread.sleep(70);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return oneTask(task.target().bucket());
        }, 10);

        assertThat(producer.consumerGroupOffsetsHistory()).as("one transaction per two pages").hasSizeGreaterThan(1);
        assertThat(producer.history()).as("every page once").hasSize(4);
        assertThat(progress.finished).containsExactly("slow0", "slow1", "slow2", "slow3");
        assertThat(lastCommittedOffset(producer)).isEqualTo(4);
    }

    /**
     * A transaction the coordinator aborted for its age answers the commit as if fenced. Told apart by how long it
     * was open, it is done again by a new producer, rather than failing the service into a crash loop.
     */
    @Test
    void shouldRedoATransactionTheCoordinatorAbortedForItsAgeWithANewProducer() {
        limits = new PageLoop.Limits(Duration.ofMillis(10), 3, Duration.ofSeconds(10), Duration.ofMillis(20));
        offer(task("slow"));
        MockProducer<byte[], byte[]> timedOut = producer();
        timedOut.commitTransactionException = new ProducerFencedException("the coordinator bumped the epoch");
        MockProducer<byte[], byte[]> next = producer();
        List<MockProducer<byte[], byte[]>> handedOut = new ArrayList<>();
        run(task -> {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return oneTask(task.target().bucket());
        }, 10, () -> {
            MockProducer<byte[], byte[]> p = handedOut.isEmpty() ? timedOut : next;
            p.initTransactions();
            handedOut.add(p);
            return p;
        });

        assertThat(handedOut).containsExactly(timedOut, next);
        assertThat(next.transactionCommitted()).isTrue();
        assertThat(next.history()).hasSize(1);
        assertThat(lastCommittedOffset(next)).isEqualTo(1);
        assertThat(progress.finished).containsExactly("slow");
    }

    @Test
    void shouldSkipARecordThatIsNotABucketTaskAndCommitPastIt() {
        offered.add("{not json".getBytes());
        offer(task("good"));
        run(task -> oneTask(task.target().bucket()), 5);

        assertThat(producer.history()).hasSize(1);
        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(metrics.statusLine()).contains("unreadable=1");
    }
}
