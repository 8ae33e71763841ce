package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.topics.TopicRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** The consume-transform-produce loop without a broker (Kafka's mock clients): what commits, and what does not. */
class PageLoopTest {

    private final TopicRegistry topics = TopicRegistry.from(new TidemarkConfig(Map.of("shard.bits", "2")));
    private final TopicPartition partition = new TopicPartition(topics.bucketTasks().name(), 0);
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer());
    private final BucketProcessorMetrics metrics = new BucketProcessorMetrics(new SimpleMeterRegistry());

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

    private final List<byte[]> offered = new java.util.ArrayList<>();

    private void offer(byte[] value) {
        offered.add(value);
    }

    /** Runs the loop for {@code polls} polls over the offered records, all on partition 0 from offset 0. */
    private void run(java.util.function.Function<BucketTask, PageWorker.PageResult> worker, int polls) {
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(partition));
            consumer.updateBeginningOffsets(Map.of(partition, 0L));
            for (int i = 0; i < offered.size(); i++) {
                consumer.addRecord(new ConsumerRecord<>(partition.topic(), 0, i, "b".getBytes(), offered.get(i)));
            }
        });
        producer.initTransactions();
        AtomicInteger left = new AtomicInteger(polls);
        PageLoop loop = new PageLoop(consumer, producer, topics, worker, WalkProgress.none(Clock.systemUTC()),
                metrics, Duration.ofMillis(10), Clock.systemUTC());
        loop.run(() -> left.getAndDecrement() > 0);
    }

    @Test
    void shouldEndAWalkThatFailsUnexpectedlyAndCommitTheOthersPages() {
        offer(topics.bucketTasks().valueSerde().serializer().serialize("t", task("poison")));
        offer(topics.bucketTasks().valueSerde().serializer().serialize("t", task("good")));
        run(task -> {
            if (task.target().bucket().equals("poison")) {
                throw new IllegalStateException("a bug this task trips");
            }
            return oneTask(task.target().bucket());
        }, 5);

        assertThat(producer.history()).extracting(r -> r.topic()).containsExactly(topics.objectTasks().name());
        assertThat(producer.consumerGroupOffsetsHistory()).isNotEmpty();
        assertThat(producer.consumerGroupOffsetsHistory().get(producer.consumerGroupOffsetsHistory().size() - 1)
                .values().iterator().next().get(partition).offset()).isEqualTo(2);
        assertThat(metrics.walksDone()).isEqualTo(2);
    }

    @Test
    void shouldSkipARecordThatIsNotABucketTaskAndCommitPastIt() {
        offer("{not json".getBytes());
        offer(topics.bucketTasks().valueSerde().serializer().serialize("t", task("good")));
        run(task -> oneTask(task.target().bucket()), 5);

        assertThat(producer.history()).hasSize(1);
        assertThat(producer.transactionCommitted()).isTrue();
        assertThat(metrics.statusLine()).contains("unreadable=1");
    }
}
