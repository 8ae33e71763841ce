package io.tidemark.conductor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.BucketTask;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

@LocalClusterTest
class ConductorPassTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static TidemarkConfig config(LocalCluster cluster, ClusterNamespace ns, String name, Map<String, String> extra) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
        settings.put("zookeeper.connect", cluster.zookeeperConnect());
        settings.put("zookeeper.chroot", ns.zookeeperChroot() + "-" + name);
        settings.put("topic.prefix", ns.topicPrefix() + name + ".");
        settings.put("shard.bits", "2");
        settings.putAll(extra);
        return new TidemarkConfig(settings);
    }

    /** Registers buckets as the populator would: the first two need walks, the third does not, the fourth is invalid. */
    private static void register(TidemarkConfig config) throws Exception {
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            Map<String, RegistryEntry> buckets = Map.of(
                    "alpha", new RegistryEntry("aa", "Enabled", false, null, true),
                    "beta", new RegistryEntry("bb", "Off", false, null, true),
                    "days-only", new RegistryEntry("cc", "Off", false, null, false),
                    "broken", new RegistryEntry("", "Off", false, "MalformedXML", null));
            for (var e : buckets.entrySet()) {
                zk.client().create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.bucket(e.getKey()),
                        JSON.writeValueAsBytes(e.getValue()));
            }
        }
    }

    private static List<BucketTask> seededTasks(TidemarkConfig config) {
        return TopicReader.committedValues(config.consumerProperties(), TopicRegistry.from(config).bucketTasks(),
                Duration.ofSeconds(30));
    }

    /** Client threads of this JVM whose names contain {@code part}: what an open admin or ZooKeeper client runs. */
    private static long threads(String part) {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.isAlive() && t.getName().contains(part))
                .count();
    }

    @Test
    void shouldCloseWhatItOpenedWhenOpeningFailsPartWay(LocalCluster cluster, ClusterNamespace ns) {
        // The producer is the last thing opened; a setting it refuses makes it fail after the admin client and
        // ZooKeeper are connected.
        TidemarkConfig config = config(cluster, ns, "leak",
                Map.of("kafka.producer.max.in.flight.requests.per.connection", "not-a-number"));
        long admins = threads("kafka-admin-client-thread");
        long zookeepers = threads("-SendThread(");
        assertThatThrownBy(() -> Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry()))
                .isInstanceOf(org.apache.kafka.common.KafkaException.class);
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            assertThat(threads("kafka-admin-client-thread")).isEqualTo(admins);
            assertThat(threads("-SendThread(")).isEqualTo(zookeepers);
        });
    }

    @Test
    void shouldSeedOneSteadyTaskPerWalkableBucketAndNoneWhileItsWalkIsUnderWay(LocalCluster cluster,
                                                                               ClusterNamespace ns) throws Exception {
        TidemarkConfig config = config(cluster, ns, "seed", Map.of());
        register(config);
        try (Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            PassReport first = conductor.runPass();
            assertThat(first.outcome()).isEqualTo(PassOutcome.RAN);
            assertThat(first.seeded()).containsExactly("alpha", "beta");
            assertThat(first.notWalked()).isEqualTo(2);

            PassReport second = conductor.runPass();
            assertThat(second.seeded()).isEmpty();
            assertThat(second.underWay()).containsExactly("alpha", "beta");
        }
        List<BucketTask> tasks = seededTasks(config);
        assertThat(tasks).extracting(t -> t.target().bucket()).containsExactly("alpha", "beta");
        assertThat(tasks).allSatisfy(t -> {
            assertThat(t.details().mode()).isEqualTo(BucketTask.Mode.steady);
            assertThat(t.details().marker()).isNull();
            assertThat(t.details().scanId()).startsWith("steady-" + t.target().bucket() + "-");
        });
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            WalkState alpha = new WalkStates(zk.client()).read("alpha").orElseThrow();
            assertThat(alpha.scanId()).isEqualTo(tasks.get(0).details().scanId());
            assertThat(alpha.finishedAt()).isNull();
        }
    }

    @Test
    void shouldSeedNoWalkWhileTheClusterIsPausedAndPassOverAPausedBucket(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        TidemarkConfig config = config(cluster, ns, "paused", Map.of());
        register(config);
        ControlFlag flag = new ControlFlag(Instant.parse("2026-11-26T12:00:00Z"), "ops@host", "migration");
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config);
             Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            LifecycleControls controls = new LifecycleControls(zk.client());
            controls.pause(Optional.empty(), flag);
            PassReport paused = conductor.runPass();
            assertThat(paused.outcome()).isEqualTo(PassOutcome.SKIPPED_PAUSED);
            assertThat(paused.detail()).contains("paused since 2026-11-26T12:00:00Z by ops@host: migration");
            assertThat(paused.seeded()).isEmpty();
            // Recorded where the long-running services and `tidemark status` read it: a CronJob is scraped by no one.
            assertThat(ConductorPassRecord.read(zk.client())).hasValueSatisfying(r -> {
                assertThat(r.outcome()).isEqualTo("skipped-paused");
                assertThat(r.detail()).contains("migration");
                assertThat(r.seeded()).isZero();
            });

            controls.resume(Optional.empty());
            controls.pause(Optional.of("alpha"), flag);
            PassReport pass = conductor.runPass();
            assertThat(pass.outcome()).isEqualTo(PassOutcome.RAN);
            assertThat(pass.seeded()).containsExactly("beta");
            assertThat(pass.paused()).containsExactly("alpha");
            assertThat(pass.summary()).contains("paused=1");
            assertThat(ConductorPassRecord.read(zk.client())).hasValueSatisfying(r -> {
                assertThat(r.outcome()).isEqualTo(ConductorPassRecord.RAN);
                assertThat(r.seeded()).isEqualTo(1);
                assertThat(r.endedAt()).isAfter(Instant.now().minusSeconds(60));
            });
        }
        assertThat(seededTasks(config)).extracting(t -> t.target().bucket()).containsExactly("beta");
    }

    /**
     * One registry node that cannot be read (a hand edit, a truncated write) must not stop every other bucket's
     * walk: it is walked to be safe — the walker reads the bucket's rules from bucket-configs, not from the node.
     */
    @Test
    void shouldSeedTheOtherBucketsAndWalkABucketWhoseRegistryNodeCannotBeRead(LocalCluster cluster,
                                                                             ClusterNamespace ns) throws Exception {
        TidemarkConfig config = config(cluster, ns, "garbled", Map.of());
        register(config);
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            zk.client().create().forPath(ZooKeeperPaths.bucket("aardvark"), "{not json".getBytes());
        }
        try (Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            PassReport pass = conductor.runPass();
            assertThat(pass.outcome()).as(String.valueOf(pass.detail())).isEqualTo(PassOutcome.RAN);
            assertThat(pass.seeded()).containsExactly("aardvark", "alpha", "beta");
        }
    }

    /**
     * Issue 27 item 2: a walk that stopped on a page it could not walk is not finished. The next pass resumes it from
     * that page, in its own mode and under its own scan id — a days-only bucket's recovery walk included, though
     * steady passes never walk that bucket.
     */
    @Test
    void shouldResumeAFailedWalkFromThePageItStoppedOn(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        TidemarkConfig config = config(cluster, ns, "resume", Map.of());
        register(config);
        BucketTask.Details stoppedAt = new BucketTask.Details("recovery-days-only-1", BucketTask.Mode.recovery, "",
                "logs/2026/k0042");
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            new WalkStates(zk.client()).update("days-only", current -> WalkState.seeded(stoppedAt.scanId(),
                    "recovery", java.time.Instant.now(), null).failedOn(stoppedAt, "the filer failed", java.time.Instant.now()));
        }
        try (Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            PassReport first = conductor.runPass();
            assertThat(first.seeded()).containsExactlyInAnyOrder("alpha", "beta", "days-only");
            assertThat(conductor.metrics().resumedCount()).isEqualTo(1);

            PassReport second = conductor.runPass();
            assertThat(second.seeded()).as("the resumed walk is under way again").doesNotContain("days-only");
        }
        assertThat(seededTasks(config)).filteredOn(t -> t.target().bucket().equals("days-only")).singleElement()
                .satisfies(t -> assertThat(t.details()).isEqualTo(stoppedAt));
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            WalkState state = new WalkStates(zk.client()).read("days-only").orElseThrow();
            assertThat(state.failed()).isFalse();
            assertThat(state.scanId()).isEqualTo("recovery-days-only-1");
        }
    }

    @Test
    void shouldRunOnePassWhenTwoConductorsStartTogether(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        TidemarkConfig config = config(cluster, ns, "two", Map.of());
        register(config);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Conductor a = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry());
             Conductor b = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            CountDownLatch go = new CountDownLatch(1);
            Future<PassReport> first = pool.submit(() -> {
                go.await();
                return a.runPass();
            });
            Future<PassReport> second = pool.submit(() -> {
                go.await();
                return b.runPass();
            });
            go.countDown();
            List<PassReport> reports = List.of(first.get(), second.get());
            assertThat(reports.stream().mapToInt(r -> r.seeded().size()).sum()).isEqualTo(2);
            assertThat(reports).extracting(PassReport::outcome).contains(PassOutcome.RAN);
        } finally {
            pool.shutdownNow();
        }
        assertThat(seededTasks(config)).extracting(t -> t.target().bucket()).containsExactlyInAnyOrder("alpha", "beta");
    }

    @Test
    void shouldSkipThePassWhileAnotherConductorHoldsTheLock(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        TidemarkConfig config = config(cluster, ns, "lock", Map.of());
        register(config);
        try (ZooKeeperConnection holder = ZooKeeperConnection.start(config);
             Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            var lock = new org.apache.curator.framework.recipes.locks.InterProcessMutex(holder.client(),
                    ZooKeeperPaths.CONDUCTOR_LOCK);
            lock.acquire();
            try {
                PassReport report = conductor.runPass();
                assertThat(report.outcome()).isEqualTo(PassOutcome.SKIPPED_LOCK);
                assertThat(report.outcome().exitCode()).isEqualTo(3);
                assertThat(conductor.metrics().passes(PassOutcome.SKIPPED_LOCK)).isEqualTo(1);
            } finally {
                lock.release();
            }
        }
        assertThat(seededTasks(config)).isEmpty();
    }

    @Test
    void shouldSkipThePassWhenTheObjectProcessorsBacklogIsAboveTheLimit(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        TidemarkConfig config = config(cluster, ns, "backlog", Map.of("conductor.max.backlog", "5"));
        register(config);
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) -1).ensure(List.of(topics.objectTasks()));
        }
        Map<String, Object> producerProperties = config.producerProperties();
        producerProperties.put("max.in.flight.requests.per.connection", 1);
        try (var producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 6; i++) {
                producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(topics.objectTasks().name(),
                        ("k" + i).getBytes(), "{}".getBytes())).get();
            }
        }
        try (Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            PassReport report = conductor.runPass();
            assertThat(report.outcome()).isEqualTo(PassOutcome.SKIPPED_BACKLOG);
            assertThat(report.backlog()).isEqualTo(6);
            assertThat(report.outcome().exitCode()).isEqualTo(4);
        }
        assertThat(seededTasks(config)).isEmpty();
    }

    @Test
    void shouldRunAPassWhenTheScheduleComesDue(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        TidemarkConfig config = config(cluster, ns, "cron", Map.of());
        register(config);
        io.tidemark.emulator.MutableClock clock = new io.tidemark.emulator.MutableClock(
                java.time.Instant.parse("2026-11-23T01:59:30Z"));
        try (ConductorService service = new ConductorService(config, clock, new SimpleMeterRegistry(), "0 2 * * *")) {
            service.start();
            Thread.sleep(1_500);
            assertThat(service.lastPass()).as("02:00 has not come yet").isEmpty();
            clock.advance(Duration.ofSeconds(31));
            org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(20)).until(() -> service.lastPass().isPresent());
            assertThat(service.lastPass().get().seeded()).containsExactly("alpha", "beta");
        }
    }
}
