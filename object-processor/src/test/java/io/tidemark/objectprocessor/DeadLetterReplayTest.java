package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * A skip is never a loss (architecture.md, invariant 6), a replay of a parked task included: a task replayed while its
 * cause persists is parked again under the same key ({@code lane#actionId}), and the replay must not erase it.
 */
@LocalClusterTest
class DeadLetterReplayTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    /**
     * Issue 43, item 4: the replay wrote its tombstones only after every replayed task was acknowledged, so a task
     * parked again in between — a large batch, the cause not fixed — was erased by them and vanished from
     * {@code dlq list}. The replay's tombstones are held back here for as long as the processor takes to park the
     * task again (or three seconds), which makes that interleaving certain.
     */
    @Test
    void shouldNeverEraseATaskParkedAgainAfterItsReplay(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "replay-reparked", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            f.emulator.faults().force("b", "k", LifecycleDeleteOutcome.BLOCKED, "still refused");
            ObjectTask task = f.expiration("b", "k");
            f.publish(List.of(task));
            f.startProcessor();
            f.awaitAllCommitted(WAIT);

            DeadLetters deadLetters = new DeadLetters(f.config, properties -> new KafkaProducer<>(properties,
                    new ByteArraySerializer(), new ByteArraySerializer()) {
                private final AtomicBoolean held = new AtomicBoolean();

                @Override
                public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
                    if (record.value() == null && record.topic().equals(f.topics.objectTasksDlq().name())
                            && held.compareAndSet(false, true)) {
                        awaitParkedAgain(f, task, Duration.ofSeconds(3));
                    }
                    return super.send(record, callback);
                }
            });
            assertThat(deadLetters.replay(deadLetters.read(WAIT), Clock.systemUTC()).sent()).hasSize(1);
            awaitParkedAgain(f, task, WAIT);

            assertThat(f.outcomesByAction().get(task.actionId()))
                    .containsExactly("BLOCKED", "PARKED", "REPLAYED", "BLOCKED", "PARKED");
            assertThat(deadLetters.read(WAIT)).as("parked again after its replay: still listed")
                    .singleElement().satisfies(p -> assertThat(p.letter().task().actionId())
                            .isEqualTo(task.actionId()));
        }
    }

    /** Waits until the task has been parked a second time, or {@code atMost} has passed. */
    private static void awaitParkedAgain(ProcessorFixture f, ObjectTask task, Duration atMost) {
        try {
            await().atMost(atMost).pollInterval(Duration.ofMillis(50)).until(() -> f.outcomesByAction()
                    .getOrDefault(task.actionId(), List.of()).stream().filter("PARKED"::equals).count() >= 2);
        } catch (org.awaitility.core.ConditionTimeoutException notYet) {
            // The task cannot be parked again before the replay is committed: the tombstone goes now.
        }
    }
}
