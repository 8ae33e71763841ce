package io.tidemark.conductor;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.BucketTask;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Issue 43 item 5 (invariant 6, "a failed walk is followed until it can be done"): what a pass owes a walk that
 * failed or went quiet, when its task cannot be sent and when the walk's last task never reached Kafka. ZooKeeper is
 * the shared cluster's; Kafka is the mock producer, made to fail when the test says.
 */
@LocalClusterTest
class OwedWalksTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-11-24T02:00:00Z");
    private static final Duration STALE = Duration.ofHours(6);

    private final TopicSpec<String, BucketTask> bucketTasks = TopicRegistry.from(
            new TidemarkConfig(Map.of("shard.bits", "2"))).bucketTasks();

    /** A producer whose sends fail, as they do when the brokers cannot be reached within the delivery timeout. */
    private static final class Unreachable extends MockProducer<byte[], byte[]> {
        Unreachable() {
            super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
            return CompletableFuture.failedFuture(new TimeoutException("expired before it reached the brokers"));
        }
    }

    private static MockProducer<byte[], byte[]> reachable() {
        return new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static ZooKeeperConnection zookeeper(LocalCluster cluster, ClusterNamespace ns, String name) {
        return ZooKeeperConnection.start(new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", ns.zookeeperChroot() + "-" + name)));
    }

    /** "walked" needs periodic walks; "days-only" has only timer kinds, so steady passes never walk it. */
    private static void register(ZooKeeperConnection zk) throws Exception {
        Map<String, RegistryEntry> buckets = Map.of(
                "walked", new RegistryEntry("aa", "Enabled", false, null, true),
                "days-only", new RegistryEntry("cc", "Off", false, null, false));
        for (var e : buckets.entrySet()) {
            zk.client().create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.bucket(e.getKey()),
                    JSON.writeValueAsBytes(e.getValue()));
        }
    }

    private PassReport pass(ZooKeeperConnection zk, MockProducer<byte[], byte[]> producer) {
        return new ConductorPass(zk.client(), producer, bucketTasks, null, List.of(),
                new ConductorSettings(-1, Duration.ZERO, STALE),
                new ConductorMetrics(new SimpleMeterRegistry(), List.of()), Clock.fixed(NOW, ZoneOffset.UTC)).run();
    }

    private List<BucketTask> sent(MockProducer<byte[], byte[]> producer) {
        return producer.history().stream()
                .map(r -> bucketTasks.valueSerde().deserializer().deserialize(r.topic(), r.value())).toList();
    }

    private static BucketTask.Details recoveryAt(String bucket, String marker) {
        return new BucketTask.Details("recovery-" + bucket + "-1", BucketTask.Mode.recovery, "", marker);
    }

    /** A recovery walk that finished its last page {@code ago}, and would go on with {@code next}. */
    private static WalkState recoveryWalk(BucketTask.Details next, Duration ago) {
        Instant started = NOW.minus(ago).minus(Duration.ofMinutes(30));
        return new WalkState(next.scanId(), "recovery", started, 40, 40_000, NOW.minus(ago), null, null, null, null,
                next, 0, 0);
    }

    @Test
    void shouldLeaveAFailedWalkFailedWhenItsResumeIsNotSentAndResumeItAtTheNextPass(LocalCluster cluster,
                                                                                   ClusterNamespace ns)
            throws Exception {
        BucketTask.Details stoppedAt = recoveryAt("days-only", "logs/2026/k0042");
        try (ZooKeeperConnection zk = zookeeper(cluster, ns, "unsent-resume")) {
            register(zk);
            WalkStates walks = new WalkStates(zk.client());
            walks.update("days-only", current -> WalkState.seeded(stoppedAt.scanId(), "recovery",
                    NOW.minus(Duration.ofHours(1)), null).failedOn(stoppedAt, "the filer failed", NOW));

            PassReport unsent = pass(zk, new Unreachable());

            assertThat(unsent.outcome()).isEqualTo(PassOutcome.FAILED);
            assertThat(walks.read("days-only").orElseThrow().failed())
                    .as("a resume that never reached Kafka leaves the walk failed, for the next pass").isTrue();

            MockProducer<byte[], byte[]> producer = reachable();
            PassReport next = pass(zk, producer);

            assertThat(next.outcome()).isEqualTo(PassOutcome.RAN);
            assertThat(sent(producer)).filteredOn(t -> t.target().bucket().equals("days-only")).singleElement()
                    .satisfies(t -> assertThat(t.details()).isEqualTo(stoppedAt));
            assertThat(walks.read("days-only").orElseThrow().failed()).as("resumed once sent").isFalse();
        }
    }

    /**
     * A recovery walk whose last task never reached Kafka (its "failed" lost, its resume unsent) shows as under way
     * until it goes stale. It is then owed the rest of its walk — re-arms and timer kinds included — not a steady walk,
     * which skips those, nor nothing at all, which is what a timers-only bucket would get.
     */
    @Test
    void shouldResumeAStalledRecoveryWalkFromItsLastPageInItsOwnModeNotReplaceItWithASteadyWalk(
            LocalCluster cluster, ClusterNamespace ns) throws Exception {
        BucketTask.Details walkedNext = recoveryAt("walked", "photos/2026/0042.jpg");
        BucketTask.Details daysOnlyNext = recoveryAt("days-only", "logs/2026/k0042");
        try (ZooKeeperConnection zk = zookeeper(cluster, ns, "stalled")) {
            register(zk);
            WalkStates walks = new WalkStates(zk.client());
            walks.update("walked", current -> recoveryWalk(walkedNext, STALE.plusMinutes(1)));
            walks.update("days-only", current -> recoveryWalk(daysOnlyNext, STALE.plusMinutes(1)));
            MockProducer<byte[], byte[]> producer = reachable();

            PassReport report = pass(zk, producer);

            assertThat(report.outcome()).isEqualTo(PassOutcome.RAN);
            assertThat(sent(producer)).extracting(BucketTask::details)
                    .containsExactlyInAnyOrder(walkedNext, daysOnlyNext);
            assertThat(walks.read("days-only").orElseThrow().inProgress(NOW, STALE)).as("under way again").isTrue();

            PassReport again = pass(zk, producer);
            assertThat(again.underWay()).containsExactly("walked");
            assertThat(producer.history()).as("nothing sent twice").hasSize(2);
        }
    }

    /** A stalled recovery walk whose state names no page (written before states kept one) starts over. */
    @Test
    void shouldResumeAStalledRecoveryWalkThatNamesNoPageFromItsStart(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ZooKeeperConnection zk = zookeeper(cluster, ns, "no-page")) {
            register(zk);
            new WalkStates(zk.client()).update("days-only", current -> new WalkState("recovery-days-only-1",
                    "recovery", NOW.minus(Duration.ofHours(8)), 3, 3_000, NOW.minus(Duration.ofHours(7)), null, null));
            MockProducer<byte[], byte[]> producer = reachable();

            pass(zk, producer);

            assertThat(sent(producer)).filteredOn(t -> t.target().bucket().equals("days-only")).singleElement()
                    .satisfies(t -> assertThat(t.details()).isEqualTo(recoveryAt("days-only", null)));
        }
    }

    /** A recovery walk that is still making progress is left to its processors. */
    @Test
    void shouldLeaveARecoveryWalkThatIsMakingProgressAlone(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ZooKeeperConnection zk = zookeeper(cluster, ns, "progressing")) {
            register(zk);
            new WalkStates(zk.client()).update("walked", current -> recoveryWalk(recoveryAt("walked", "m"),
                    Duration.ofMinutes(5)));
            MockProducer<byte[], byte[]> producer = reachable();

            PassReport report = pass(zk, producer);

            assertThat(report.underWay()).containsExactly("walked");
            assertThat(producer.history()).isEmpty();
        }
    }

    /** A steady walk whose first task was not sent is not recorded as under way: the next pass seeds it. */
    @Test
    void shouldNotRecordASteadyWalkWhoseFirstTaskWasNotSent(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ZooKeeperConnection zk = zookeeper(cluster, ns, "unsent-steady")) {
            register(zk);

            PassReport unsent = pass(zk, new Unreachable());

            assertThat(unsent.outcome()).isEqualTo(PassOutcome.FAILED);
            assertThat(unsent.seeded()).isEmpty();
            assertThat(new WalkStates(zk.client()).read("walked")).as("no walk recorded").isEmpty();
            MockProducer<byte[], byte[]> producer = reachable();
            PassReport next = pass(zk, producer);
            assertThat(next.seeded()).containsExactly("walked");
            assertThat(sent(producer)).singleElement().satisfies(t -> {
                assertThat(t.details().mode()).isEqualTo(BucketTask.Mode.steady);
                assertThat(t.details().scanId()).isEqualTo("steady-walked-" + NOW.toEpochMilli());
            });
        }
    }
}
