package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.BucketTask;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 5: what the walk state in ZooKeeper holds when ZooKeeper fails at the worst moment, the page loop
 * running on Kafka's mock clients and a real ZooKeeper session (the shared cluster's) that the test ends when the
 * page's transaction commits.
 */
@LocalClusterTest
class WalkStateRecordingTest {

    private static final String SCAN = "recovery-logs-1";

    private final TopicRegistry topics = TopicRegistry.from(new TidemarkConfig(Map.of("shard.bits", "2")));
    private final TopicPartition partition = new TopicPartition(topics.bucketTasks().name(), 0);
    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST);
    private final List<Runnable> onCommit = new ArrayList<>();
    private final MockProducer<byte[], byte[]> producer = new MockProducer<>(true, null, new ByteArraySerializer(),
            new ByteArraySerializer()) {
        @Override
        public synchronized void commitTransaction() {
            super.commitTransaction();
            onCommit.forEach(Runnable::run);
        }
    };

    private static ZooKeeperConnection zookeeper(LocalCluster cluster, ClusterNamespace ns, String name) {
        return ZooKeeperConnection.start(new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", ns.zookeeperChroot() + "-" + name)));
    }

    private static BucketTask page(String marker) {
        return new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target("logs"),
                new BucketTask.Details(SCAN, BucketTask.Mode.recovery, "", marker));
    }

    /** Runs the loop over {@code tasks}, on partition 0 from offset 0, for a few polls. */
    private void run(List<BucketTask> tasks, Function<BucketTask, PageWorker.PageResult> worker,
                     WalkProgress progress) {
        consumer.schedulePollTask(() -> {
            consumer.rebalance(List.of(partition));
            consumer.updateBeginningOffsets(Map.of(partition, 0L));
            for (int i = 0; i < tasks.size(); i++) {
                consumer.addRecord(new ConsumerRecord<>(partition.topic(), 0, i, "logs".getBytes(),
                        topics.bucketTasks().valueSerde().serializer().serialize("t", tasks.get(i))));
            }
        });
        AtomicInteger polls = new AtomicInteger(5);
        new PageLoop(consumer, () -> {
            producer.initTransactions();
            return producer;
        }, topics, worker, progress, new BucketProcessorMetrics(new SimpleMeterRegistry()),
                new PageLoop.Limits(Duration.ofMillis(10), 3, Duration.ofSeconds(10), Duration.ofMinutes(1)),
                Clock.systemUTC()).run(() -> polls.getAndDecrement() > 0);
    }

    private long committedOffset() {
        var history = producer.consumerGroupOffsetsHistory();
        return history.isEmpty() ? 0 : history.get(history.size() - 1).values().iterator().next().get(partition)
                .offset();
    }

    /**
     * The page a walk cannot walk commits (its offset consumed, no continuation): from then on, the walk state is the
     * only trace of the walk. ZooKeeper lost as that commit completes must not lose it: the state says failed, and
     * from which page the walk resumes.
     */
    @Test
    void shouldKeepAWalksFailureWhenTheZooKeeperSessionIsLostAsItsPageCommits(LocalCluster cluster,
                                                                             ClusterNamespace ns) throws Exception {
        BucketTask stuck = page("logs/2026/k0042");
        try (ZooKeeperConnection observer = zookeeper(cluster, ns, "lost")) {
            WalkStates observed = new WalkStates(observer.client());
            Instant started = Instant.now().minusSeconds(60);
            observed.update("logs", current -> WalkState.seeded(SCAN, "recovery", started, null)
                    .page(1000, 0, started, stuck.details()));
            ZooKeeperConnection processors = zookeeper(cluster, ns, "lost");
            onCommit.add(processors::close);

            run(List.of(stuck), task -> {
                throw new IllegalStateException("a bug this page trips");
            }, new WalkProgress(new WalkStates(processors.client()), Clock.systemUTC()));

            assertThat(committedOffset()).as("the page was consumed").isEqualTo(1);
            WalkState state = observed.read("logs").orElseThrow();
            assertThat(state.failed()).as("the walk state says failed").isTrue();
            assertThat(state.resume()).isEqualTo(stuck.details());
        }
    }

    /**
     * Each committed page records the task its walk goes on with, so that a walk whose chain of tasks is lost can be
     * resumed where it stood rather than started over or forgotten.
     */
    @Test
    void shouldRecordWithEachPageTheTaskItsWalkWouldGoOnWith(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        BucketTask first = page(null);
        BucketTask next = new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target("logs"),
                new BucketTask.Details(SCAN, BucketTask.Mode.recovery, "", "logs/2026/k0999.versions/",
                        new BucketTask.VersionsCursor("v2", false, 3, 2, 1_700_000_000_000_000_000L, true)));
        try (ZooKeeperConnection zk = zookeeper(cluster, ns, "next")) {
            WalkStates states = new WalkStates(zk.client());

            run(List.of(first), task -> new PageWorker.PageResult(new PageOutput(), Optional.of(next), null),
                    new WalkProgress(states, Clock.systemUTC()));

            WalkState state = states.read("logs").orElseThrow();
            assertThat(state.pages()).isEqualTo(1);
            assertThat(state.resume()).isEqualTo(next.details());
        }
    }
}
