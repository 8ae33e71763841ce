package io.tidemark.populator;

import io.tidemark.zookeeper.RegistryEntry;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.MetaLogWriter;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** The populator as a service against real Kafka, ZooKeeper and the emulated filer. */
@LocalClusterTest
class PopulatorServiceTest {

    private static final Duration CATCH_UP = Duration.ofSeconds(60);

    static final String RULES = """
            <LifecycleConfiguration>
              <Rule><ID>expire-logs</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Enabled</Status>
                <Expiration><Days>30</Days></Expiration>
                <NoncurrentVersionExpiration><NoncurrentDays>7</NoncurrentDays></NoncurrentVersionExpiration>
                <AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation></AbortIncompleteMultipartUpload>
              </Rule>
            </LifecycleConfiguration>""";

    static final String OTHER_RULES = RULES.replace("<Days>30</Days>", "<Days>60</Days>");

    @Test
    void shouldPublishEveryRecordKindFromRealS3OperationsOnTheObjectsShard(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "kinds", Map.of())) {
            PopulatorService populator = f.startPopulator();
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("plain", false);
            s3.putLifecycle("plain", RULES);
            s3.putObject("plain", "logs/a.txt", 10, Map.of(), Map.of());
            s3.putTags("plain", "logs/a.txt", null, Map.of("env", "prod"));
            s3.putObject("plain", "logs/a.txt", 20, Map.of(), Map.of());
            s3.deleteObject("plain", "logs/a.txt");
            String upload = s3.createUpload("plain", "logs/big.bin");
            s3.uploadPart("plain", upload, 1, 5);
            s3.completeUpload("plain", upload);
            s3.abortUpload("plain", s3.createUpload("plain", "logs/gone.bin"));
            s3.createBucket("versioned", false);
            s3.setVersioning("versioned", BucketVersioning.ENABLED);
            s3.putObject("versioned", "k", 1, Map.of(), Map.of());
            String v2 = s3.putObject("versioned", "k", 2, Map.of(), Map.of());
            s3.deleteObject("versioned", "k");
            s3.deleteVersion("versioned", "k", v2);
            s3.createBucket("short-lived", false);
            s3.deleteBucket("short-lived");

            f.awaitCaughtUp(CATCH_UP);
            f.assertExactlyOnce();
            List<MetaLogRecord> records = f.metaLog().stream().map(PopulatorFixture.Published::record).toList();
            Set<EventKind> kinds = records.stream().map(MetaLogRecord::getKind)
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(EventKind.class)));
            assertThat(kinds).containsAll(EnumSet.complementOf(EnumSet.of(EventKind.REARM,
                    EventKind.EVENT_KIND_UNSPECIFIED, EventKind.UNRECOGNIZED)));
            assertThat(records).filteredOn(r -> r.getKind() == EventKind.VERSION_CREATED)
                    .allSatisfy(r -> assertThat(r.getLogicalKey()).isEqualTo("k"));
            assertThat(records).filteredOn(r -> r.getKind() == EventKind.UPLOAD_INITIATED)
                    .extracting(MetaLogRecord::getLogicalKey).containsExactly("logs/big.bin", "logs/gone.bin");
            assertThat(populator.metrics().published()).isEqualTo(records.size());
            assertThat(populator.metrics().statusLine()).startsWith("populator: status=leading lag=")
                    .contains("published=" + records.size());
        }
    }

    @Test
    void shouldKeepTheRegistryAndConfigsAndAskForRecoveryWalksWhenRulesChange(LocalCluster cluster,
                                                                             ClusterNamespace ns) throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "configs", Map.of())) {
            f.startPopulator();
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("photos", false);
            s3.putLifecycle("photos", RULES);
            f.awaitCaughtUp(CATCH_UP);
            RegistryEntry first = f.registry().read("photos").orElseThrow();
            assertThat(first.invalidCode()).isNull();
            assertThat(first.ruleSetHash()).hasSize(64);

            s3.setVersioning("photos", BucketVersioning.ENABLED);   // no rule change: no walk
            s3.putLifecycle("photos", OTHER_RULES);                    // rule change: a walk
            f.awaitCaughtUp(CATCH_UP);
            RegistryEntry second = f.registry().read("photos").orElseThrow();
            assertThat(second.ruleSetHash()).isNotEqualTo(first.ruleSetHash());
            assertThat(second.versioning()).isEqualTo("Enabled");

            List<ConsumerRecord<String, BucketTask>> tasks = f.committed(f.topics.bucketTasks());
            assertThat(tasks).extracting(r -> r.value().details().scanId()).satisfiesExactly(
                    id -> assertThat(id).startsWith("recovery-photos-" + first.ruleSetHash().substring(0, 16) + "-"),
                    id -> assertThat(id).startsWith("recovery-photos-" + second.ruleSetHash().substring(0, 16) + "-"));
            assertThat(tasks).allSatisfy(r -> assertThat(r.value().details().mode()).isEqualTo(BucketTask.Mode.recovery));

            s3.deleteBucket("photos");
            f.awaitCaughtUp(CATCH_UP);
            assertThat(f.registry().read("photos")).isEmpty();
            List<ConsumerRecord<String, BucketConfig>> configs = f.committed(f.topics.bucketConfigs());
            assertThat(configs).extracting(ConsumerRecord::key).containsOnly("photos");
            assertThat(configs.get(configs.size() - 1).value()).as("tombstone").isNull();
            assertThat(configs).extracting(ConsumerRecord::value).filteredOn(c -> c != null)
                    .extracting(BucketConfig::ruleSetHash).contains(first.ruleSetHash(), second.ruleSetHash());
        }
    }

    @Test
    void shouldLeadWithOneInstanceKeepTheOtherReadyInStandbyAndHandOverOnStop(LocalCluster cluster,
                                                                             ClusterNamespace ns) throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "standby", Map.of())) {
            PopulatorService first = f.startPopulator();
            PopulatorService second = f.startPopulator();
            await().atMost(CATCH_UP).until(() -> first.metrics().leader() ^ second.metrics().leader());
            PopulatorService leader = first.metrics().leader() ? first : second;
            PopulatorService standby = leader == first ? second : first;
            await().atMost(CATCH_UP).until(() -> standby.metrics().status() == PopulatorStatus.STANDBY);
            assertThat(standby.ready()).isTrue();
            f.emulator.s3().createBucket("b", false);
            f.emulator.s3().putObject("b", "before", 1, Map.of(), Map.of());
            f.awaitCaughtUp(CATCH_UP);

            leader.close();   // a graceful stop leaves the election at once: no session timeout to wait for
            await().atMost(CATCH_UP).until(() -> standby.metrics().leader());
            f.emulator.s3().putObject("b", "after", 1, Map.of(), Map.of());
            f.awaitCaughtUp(CATCH_UP);
            assertThat(leader.metrics().statusLine()).startsWith("populator: status=stopped");
            f.assertExactlyOnce();
        }
    }

    /** A first populator term catches up on bucket b and stops; then objects are written that no term has seen. */
    private static void catchUpThenWrite(PopulatorFixture f, int objects) throws Exception {
        S3Gateway s3 = f.emulator.s3();
        s3.createBucket("b", false);
        try (PopulatorService first = f.startPopulator()) {
            f.awaitCaughtUp(CATCH_UP);
        }
        for (int i = 0; i < objects; i++) {
            s3.putObject("b", "k" + i, 1, Map.of(), Map.of());
        }
    }

    @Test
    void shouldNotRepublishEventsTheMetaLogHoldsBeyondTheCheckpoint(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "tail", Map.of())) {
            catchUpThenWrite(f, 5);
            // Three of the new events reach the meta-log in a committed transaction whose checkpoint never shows:
            // what a transaction decided on the meta-log partitions but not on the checkpoint's looks like.
            List<SubscribeMetadataResponse> events = f.filerEvents();
            EventClassifier classifier = new EventClassifier("/buckets", ShardFunction.withBits(f.config.shardBits()));
            try (TransactionalPublisher other = TransactionalPublisher.open(f.config.producerProperties(),
                    "simulated-" + ns.topicPrefix(), f.topics)) {
                other.begin();
                for (SubscribeMetadataResponse e : events.subList(events.size() - 5, events.size() - 2)) {
                    other.metaLog(classifier.classify(e));
                }
                other.producer().commitTransaction();
            }

            f.startPopulator();
            f.awaitCaughtUp(CATCH_UP);
            f.assertExactlyOnce();
        }
    }

    @Test
    void shouldMarkAMalformedConfigurationInvalidAndCarryOn(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "invalid", Map.of())) {
            PopulatorService populator = f.startPopulator();
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("broken", false);
            s3.putLifecycleUnchecked("broken", "<LifecycleConfiguration><Rule><Status>Enabled</Rule>");
            s3.createBucket("fine", false);
            s3.putLifecycle("fine", RULES);
            s3.putObject("fine", "logs/after.txt", 1, Map.of(), Map.of());
            f.awaitCaughtUp(CATCH_UP);

            assertThat(f.registry().read("broken").orElseThrow().invalidCode()).isEqualTo("MalformedXML");
            assertThat(f.registry().read("fine").orElseThrow().invalidCode()).isNull();
            assertThat(populator.metrics().statusLine()).contains("buckets=2 invalid=1");
            BucketConfig broken = f.committed(f.topics.bucketConfigs()).stream().map(ConsumerRecord::value)
                    .filter(c -> c.bucket().equals("broken")).findFirst().orElseThrow();
            assertThat(broken.invalidMessage()).isNotBlank();
            // Only the valid bucket gets a walk; everything after the bad XML is still published.
            assertThat(f.committed(f.topics.bucketTasks())).extracting(r -> r.value().target().bucket())
                    .containsExactly("fine");
            f.assertExactlyOnce();
        }
    }

    /** A valid configuration of {@code rules} rules, about 1.2 KB each (long prefixes), tagged by {@code days}. */
    static String largeRules(int rules, int days) {
        StringBuilder xml = new StringBuilder("<LifecycleConfiguration>");
        for (int i = 0; i < rules; i++) {
            xml.append("<Rule><ID>rule-").append(i).append("</ID><Filter><Prefix>").append("p".repeat(1_000))
                    .append('/').append(i).append("/</Prefix></Filter><Status>Enabled</Status><Expiration><Days>")
                    .append(days).append("</Days></Expiration></Rule>");
        }
        return xml.append("</LifecycleConfiguration>").toString();
    }

    /**
     * A bucket event carries the bucket entry before and after: replacing a 700-rule configuration makes an event of
     * about twice its size, over what Kafka takes in one record. The populator slims it (the rules travel in
     * bucket-configs anyway), flags it, and publishes everything after it.
     */
    @Test
    void shouldSlimAnEventTooLargeForKafkaAndPublishEverythingAfterIt(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "oversized", Map.of())) {
            PopulatorService populator = f.startPopulator();
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("huge", false);
            s3.putLifecycle("huge", largeRules(700, 30));
            s3.putLifecycle("huge", largeRules(700, 60));
            s3.putObject("huge", "logs/after.txt", 1, Map.of(), Map.of());
            f.awaitCaughtUp(CATCH_UP);

            f.assertExactlyOnce();
            List<MetaLogRecord> records = f.metaLog().stream().map(PopulatorFixture.Published::record).toList();
            assertThat(records).filteredOn(MetaLogRecord::getSlimmed).isNotEmpty().allSatisfy(r -> {
                assertThat(r.getBucket()).isEqualTo("huge");
                assertThat(r.getSerializedSize()).isLessThan(1_000_000);
            });
            assertThat(records).anySatisfy(r -> assertThat(r.getLogicalKey()).isEqualTo("logs/after.txt"));
            // Slimmed or whole, every record is marked as the populator's own.
            assertThat(records).extracting(MetaLogRecord::getWriter).containsOnly(MetaLogWriter.POPULATOR);
            BucketConfig latest = f.committed(f.topics.bucketConfigs()).stream().map(ConsumerRecord::value)
                    .reduce((a, b) -> b).orElseThrow();
            assertThat(latest.lifecycleXml()).isEqualTo(largeRules(700, 60));
            assertThat(populator.metrics().statusLine()).contains("slimmed=");
        }
    }

    @Test
    void shouldColdStartFromTheBucketsAlreadyOnTheFilerAndMissNothingAfterwards(LocalCluster cluster,
                                                                               ClusterNamespace ns) throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "cold",
                Map.of("populator.cold-start.overlap.ms", "0"))) {
            S3Gateway s3 = f.emulator.s3();
            for (int b = 0; b < 5; b++) {
                s3.createBucket("old-" + b, false);
                if (b % 2 == 0) {
                    s3.putLifecycle("old-" + b, RULES);
                }
                for (int k = 0; k < 20; k++) {
                    s3.putObject("old-" + b, "logs/" + k, k, Map.of(), Map.of());
                }
            }
            s3.putLifecycleUnchecked("old-1", "not xml");
            // A registry node from an earlier deployment whose bucket is gone.
            f.registry().apply(new BucketConfigChange("vanished", new BucketConfig("vanished", "Off", false, RULES,
                    "ab".repeat(32), null, null), false));
            long before = f.filerEvents().get(f.filerEvents().size() - 1).getTsNs();

            f.startPopulator();
            await().atMost(CATCH_UP).until(() -> f.checkpoint().isPresent());
            s3.putObject("old-0", "logs/new", 1, Map.of(), Map.of());
            f.awaitCaughtUp(CATCH_UP);

            assertThat(f.registry().buckets()).containsExactly("old-0", "old-1", "old-2", "old-4");
            assertThat(f.registry().read("old-1").orElseThrow().invalidCode()).isEqualTo("MalformedXML");
            assertThat(f.committed(f.topics.bucketTasks())).extracting(r -> r.value().target().bucket())
                    .containsExactlyInAnyOrder("old-0", "old-2", "old-4");
            assertThat(f.committed(f.topics.bucketConfigs())).extracting(ConsumerRecord::key)
                    .containsExactlyInAnyOrder("old-0", "old-1", "old-2", "old-4");
            List<MetaLogRecord> records = f.metaLog().stream().map(PopulatorFixture.Published::record).toList();
            assertThat(records).allSatisfy(r -> assertThat(r.getTsNs()).isGreaterThan(before));
            assertThat(records).extracting(MetaLogRecord::getLogicalKey).contains("logs/new");
            f.assertExactlyOnce();
        }
    }

    /**
     * Issue 15 item 4: a cold start must not have to fit in one Kafka transaction. With the transaction timeout
     * lowered to 10 s, 20 000 lifecycle buckets took longer than that to enumerate in one transaction, the coordinator
     * aborted it, and the populator started over for ever with nothing published. The suite runs 8 000 (four
     * chunks, the listing longer than any of their transactions); `populator bench --cold-start-buckets` any number.
     */
    @Test
    void shouldColdStartEightThousandLifecycleBucketsAcrossTransactionsShorterThanTheListing(LocalCluster cluster,
                                                                                             ClusterNamespace ns)
            throws Exception {
        int buckets = 8_000;
        // A short overlap: the buckets were all made just before, and republishing their events after the listing
        // is not what this measures.
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "big-cold",
                Map.of("kafka.producer.transaction.timeout.ms", "10000", "populator.cold-start.overlap.ms", "1000"))) {
            S3Gateway s3 = f.emulator.s3();
            for (int b = 0; b < buckets; b++) {
                String name = String.format("bucket-%05d", b);
                s3.createBucket(name, false);
                s3.putLifecycle(name, RULES);
            }
            long began = System.nanoTime();
            PopulatorService populator = f.startPopulator();
            // The metric first: reading the committed state (8 000 configurations) on every poll would compete
            // for the cores with what is measured.
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(100))
                    .until(() -> populator.metrics().coldStartBuckets() >= buckets);
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> f.checkpoint().map(c -> !c.coldStarting()).orElse(false));
            double seconds = (System.nanoTime() - began) / 1e9;
            System.out.printf("cold start of %d lifecycle buckets: %.1f s, %.0f buckets/s%n", buckets, seconds,
                    buckets / seconds);

            assertThat(f.registry().buckets()).hasSize(buckets);
            assertThat(f.committed(f.topics.bucketConfigs())).extracting(ConsumerRecord::key).doesNotHaveDuplicates()
                    .hasSize(buckets);
            assertThat(f.committed(f.topics.bucketTasks())).hasSize(buckets);
            assertThat(populator.metrics().coldStarts()).as("one cold start, never started over").isEqualTo(1);
            assertThat(populator.metrics().transactionsTimedOut()).isZero();
            s3.putObject("bucket-00042", "logs/after", 1, Map.of(), Map.of());
            f.awaitCaughtUp(CATCH_UP);
            assertThat(f.metaLog()).extracting(p -> p.record().getLogicalKey()).contains("logs/after");
        }
    }

    /**
     * Issue 15 item 9: events written while the cold start enumerates — here by a writer that never pauses, with the
     * populator's clock 3 s ahead of the filer's — are all published: the subscription begins the overlap before
     * the enumeration did. Without the overlap the first 3 s of writes would fall before it.
     */
    @Test
    void shouldPublishEveryEventWrittenWhileTheColdStartEnumeratesWithItsClockAheadOfTheFilers(LocalCluster cluster,
                                                                                             ClusterNamespace ns)
            throws Exception {
        try (PopulatorFixture f = PopulatorFixture.start(cluster, ns, "overlap",
                Map.of("populator.cold-start.chunk.buckets", "50"))) {
            S3Gateway s3 = f.emulator.s3();
            for (int b = 0; b < 1_000; b++) {
                String name = String.format("old-%04d", b);
                s3.createBucket(name, false);
                if (b % 10 == 0) {
                    s3.putLifecycle(name, RULES);
                }
            }
            s3.createBucket("busy", false);
            AtomicBoolean writing = new AtomicBoolean(true);
            AtomicInteger written = new AtomicInteger();
            Thread writer = new Thread(() -> {
                while (writing.get()) {
                    s3.putObject("busy", "k" + written.getAndIncrement(), 1, Map.of(), Map.of());
                    LockSupport.parkNanos(2_000_000);
                }
            });
            writer.start();
            try {
                f.startPopulator(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(3)));
                await().atMost(CATCH_UP).pollInterval(Duration.ofMillis(100))
                        .until(() -> f.checkpoint().map(c -> !c.coldStarting()).orElse(false));
            } finally {
                writing.set(false);
                writer.join();
            }
            f.awaitCaughtUp(CATCH_UP);

            long coldStartNs = f.checkpoint().orElseThrow().coldStartNs();
            long inOverlap = f.filerEvents().stream().filter(e -> e.getDirectory().endsWith("/busy"))
                    .filter(e -> e.getTsNs() < coldStartNs && e.getTsNs() >= coldStartNs - 10_000_000_000L).count();
            assertThat(inOverlap).as("writes the populator's clock puts before its cold start").isPositive();
            f.assertExactlyOnce();
        }
    }
}
