package io.tidemark.cli.audit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code tidemark audit} against a real broker: one {@code lifecycle-events} topic of four partitions, written once
 * with events three days old and an hour old, of two buckets, plus one record that is not an event; every test reads it.
 */
@LocalClusterTest
class AuditCommandTest {

    private static final int PARTITIONS = 4;
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    private static final Instant THREE_DAYS_AGO = NOW.minus(Duration.ofDays(3));
    private static final Instant AN_HOUR_AGO = NOW.minus(Duration.ofHours(1));

    /** What was written, to work out what each scan should have read. */
    private record Written(String key, int partition, Instant timestamp) {
    }

    private static final List<Written> WRITTEN = new ArrayList<>();
    private static String bootstrap;
    private static String prefix;

    @BeforeAll
    static void writeEvents(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        bootstrap = cluster.kafkaBootstrapServers();
        prefix = ns.topicPrefix() + "audit.";
        TopicSpec<String, LifecycleEvent> topic = TopicRegistry.from(new TidemarkConfig(Map.of("topic.prefix", prefix,
                "shard.bits", "2"))).lifecycleEvents();
        Map<String, Object> settings = Map.of("bootstrap.servers", bootstrap);
        try (Admin admin = Admin.create(settings)) {
            new TopicAdmin(admin, (short) -1).ensure(List.of(topic));
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(settings, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<ProducerRecord<byte[], byte[]>> records = Stream.of(
                    event("photos", "a.jpg", "RETRY_LATER", 1, THREE_DAYS_AGO),
                    // Due two hours before it was done, and 30 s before: the others carry no due instant, as
                    // events written before they had one.
                    event("photos", "a.jpg", "DONE", 2, AN_HOUR_AGO, AN_HOUR_AGO.minus(Duration.ofHours(2))),
                    event("photos", "b.jpg", "NOOP_RESOLVED", 1, AN_HOUR_AGO.plusSeconds(1),
                            AN_HOUR_AGO.minusSeconds(29)),
                    event("photos", "c.jpg", "SKIPPED_OBJECT_LOCK", 1, AN_HOUR_AGO.plusSeconds(2)),
                    event("photos", "d.jpg", "BLOCKED", 1, AN_HOUR_AGO.plusSeconds(3)),
                    event("photos", "d.jpg", "PARKED", 1, AN_HOUR_AGO.plusSeconds(4)),
                    event("photos", "e.jpg", "DRY_RUN", 1, AN_HOUR_AGO.plusSeconds(5)),
                    // Another bucket whose name begins with the first's: its keys must not pass for "photos/...".
                    event("photos2", "a.jpg", "DONE", 1, AN_HOUR_AGO.plusSeconds(6)),
                    event("logs", "x", "DONE", 1, AN_HOUR_AGO.plusSeconds(7)),
                    raw("photos/poison", "not json at all".getBytes(StandardCharsets.UTF_8),
                            AN_HOUR_AGO.plusSeconds(8))).toList();
            for (ProducerRecord<byte[], byte[]> r : records) {
                producer.send(r).get();
            }
        }
    }

    private static ProducerRecord<byte[], byte[]> event(String bucket, String key, String outcome, int attempt,
                                                        Instant at) {
        return event(bucket, key, outcome, attempt, at, null);
    }

    private static ProducerRecord<byte[], byte[]> event(String bucket, String key, String outcome, int attempt,
                                                        Instant at, Instant dueAt) {
        LifecycleEvent event = new LifecycleEvent("action-" + key, bucket, key, "v-" + key, "DELETE",
                "EXPIRATION_DAYS", "rule-1", outcome, "because " + outcome, attempt, at, dueAt);
        return raw(ShardPartitioner.key(bucket, key),
                TopicRegistry.from(new TidemarkConfig(Map.of())).lifecycleEvents().valueSerde().serializer()
                        .serialize("t", event), at);
    }

    /** A record as the object processor writes one: on its key's shard partition, with an explicit timestamp. */
    private static ProducerRecord<byte[], byte[]> raw(String key, byte[] value, Instant timestamp) {
        int partition = ShardPartitioner.shardOf(key, PARTITIONS);
        WRITTEN.add(new Written(key, partition, timestamp));
        return new ProducerRecord<>(prefix + "lifecycle-events", partition, timestamp.toEpochMilli(),
                key.getBytes(StandardCharsets.UTF_8), value);
    }

    private record Run(int exitCode, String out, String err) {
    }

    private static Run audit(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        List<String> all = new ArrayList<>(List.of(args));
        if (all.stream().noneMatch(a -> a.startsWith("kafka.bootstrap.servers="))) {
            all.addAll(List.of("--set", "kafka.bootstrap.servers=" + bootstrap));
        }
        if (all.stream().noneMatch(a -> a.startsWith("topic.prefix="))) {
            all.addAll(List.of("--set", "topic.prefix=" + prefix));
        }
        if (all.stream().noneMatch(a -> a.startsWith("shard.bits="))) {
            all.addAll(List.of("--set", "shard.bits=2"));
        }
        int code = new CommandLine(new AuditCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    private static JsonNode auditJson(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--json");
        Run run = audit(all.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        return new ObjectMapper().readTree(run.out());
    }

    private static List<String> outcomes(JsonNode report) {
        List<String> outcomes = new ArrayList<>();
        report.path("events").forEach(e -> outcomes.add(e.path("event").path("outcome").asText()));
        return outcomes;
    }

    @Test
    void shouldListTheBucketsEventsOfTheLastDayOldestFirstThenTotalsByOutcome() {
        Run run = audit("--bucket", "photos");

        assertThat(run.exitCode()).as(run.err()).isZero();
        List<String> lines = run.out().lines().toList();
        assertThat(lines.get(0)).startsWith("TIME").contains("LATE", "OUTCOME", "KIND", "TRY", "RULE", "KEY",
                "VERSION", "REASON");
        assertThat(lines.subList(1, 7)).satisfiesExactly(
                l -> assertThat(l).startsWith(AN_HOUR_AGO.toString().replace("Z", ".000Z")).contains("2h00m", "DONE",
                        "EXPIRATION_DAYS", "  2  ", "rule-1", "a.jpg", "v-a.jpg", "because DONE"),
                l -> assertThat(l).contains("30s", "NOOP_RESOLVED", "b.jpg"),
                l -> assertThat(l).contains(" - ", "SKIPPED_OBJECT_LOCK", "c.jpg"),
                l -> assertThat(l).contains("BLOCKED", "d.jpg"),
                l -> assertThat(l).contains("PARKED", "d.jpg"),
                l -> assertThat(l).contains("DRY_RUN", "e.jpg"));
        assertThat(run.out()).doesNotContain("photos2", "RETRY_LATER", "logs");
        assertThat(lines.get(7)).isEqualTo("6 events (BLOCKED=1, DONE=1, DRY_RUN=1, NOOP_RESOLVED=1, PARKED=1, "
                + "SKIPPED_OBJECT_LOCK=1)");
        assertThat(lines.get(8)).startsWith("read ").contains("of 4 partitions", "1 undecodable record skipped");
    }

    @Test
    void shouldReadOnlyTheKeysShardPartitionWhenAKeyIsGiven() throws Exception {
        int shard = ShardPartitioner.shardOf("photos/a.jpg", PARTITIONS);

        JsonNode report = auditJson("--bucket", "photos", "--key", "a.jpg", "--since", "7d");

        assertThat(report.path("partitions")).extracting(JsonNode::asInt).containsExactly(shard);
        assertThat(report.path("recordsRead").asLong())
                .isEqualTo(WRITTEN.stream().filter(w -> w.partition() == shard).count());
        assertThat(outcomes(report)).containsExactly("RETRY_LATER", "DONE");
        assertThat(report.path("events")).allSatisfy(e -> {
            assertThat(e.path("partition").asInt()).isEqualTo(shard);
            assertThat(e.path("event").path("objectPath").asText()).isEqualTo("a.jpg");
        });
    }

    @Test
    void shouldReadEveryPartitionForAKeyWhenTheTopicIsNotShardedAsConfigured() throws Exception {
        JsonNode report = auditJson("--bucket", "photos", "--key", "a.jpg", "--since", "7d", "--set", "shard.bits=3");

        assertThat(report.path("partitions")).extracting(JsonNode::asInt).containsExactly(0, 1, 2, 3);
        assertThat(outcomes(report)).containsExactly("RETRY_LATER", "DONE");
    }

    @Test
    void shouldNotReadRecordsWrittenBeforeSince() throws Exception {
        JsonNode lastTwoDays = auditJson("--bucket", "photos", "--since", "2d");
        JsonNode lastWeek = auditJson("--bucket", "photos", "--since", "7d");

        // The old record is skipped by offset, not read and dropped: the broker's time index found where to start.
        assertThat(lastTwoDays.path("recordsRead").asLong())
                .isEqualTo(WRITTEN.stream().filter(w -> w.timestamp().isAfter(NOW.minus(Duration.ofDays(2)))).count());
        assertThat(lastWeek.path("recordsRead").asLong()).isEqualTo(WRITTEN.size());
        assertThat(outcomes(lastTwoDays)).doesNotContain("RETRY_LATER");
        assertThat(outcomes(lastWeek)).contains("RETRY_LATER");
    }

    @Test
    void shouldKeepToAWindowGivenAsInstants() throws Exception {
        JsonNode report = auditJson("--bucket", "photos", "--since", THREE_DAYS_AGO.toString(),
                "--until", THREE_DAYS_AGO.plusSeconds(1).toString());

        assertThat(outcomes(report)).containsExactly("RETRY_LATER");
        assertThat(report.path("recordsRead").asLong()).isEqualTo(1);
    }

    @Test
    void shouldKeepOnlyTheOutcomesAskedForWithAStarAsAPrefix() throws Exception {
        JsonNode report = auditJson("--bucket", "photos", "--outcome", "NOOP_*,parked", "--outcome", "DRY_RUN");

        assertThat(outcomes(report)).containsExactly("NOOP_RESOLVED", "PARKED", "DRY_RUN");
        assertThat(report.path("matched").asLong()).isEqualTo(3);
        assertThat(report.path("totals").fieldNames()).toIterable()
                .containsExactly("DRY_RUN", "NOOP_RESOLVED", "PARKED");
    }

    @Test
    void shouldKeepOnlyTheAttemptsAnsweredLaterThanAskedAfterTheirDueInstant() throws Exception {
        JsonNode late = auditJson("--bucket", "photos", "--later-than", "5m");
        assertThat(outcomes(late)).containsExactly("DONE");
        assertThat(late.path("events").get(0).path("event").path("dueAt").asText())
                .isEqualTo(AN_HOUR_AGO.minus(Duration.ofHours(2)).toString());

        // Events without a due instant (written before they carried one) never count as late.
        assertThat(outcomes(auditJson("--bucket", "photos", "--later-than", "20s")))
                .containsExactly("DONE", "NOOP_RESOLVED");
        assertThat(outcomes(auditJson("--bucket", "photos", "--later-than", "3h"))).isEmpty();
        Run unreadable = audit("--bucket", "photos", "--later-than", "soon");
        assertThat(unreadable.exitCode()).isEqualTo(2);
        assertThat(unreadable.err()).contains("'soon' is not a span of time");
    }

    @Test
    void shouldShowTheLatestEventsUpToTheLimitAndCountThemAll() {
        Run run = audit("--bucket", "photos", "--limit", "2");

        // Any event line (it starts with its instant), not those of AN_HOUR_AGO's hour: the events lie seconds
        // after it, and across the top of an hour they do not share it.
        assertThat(run.out().lines().filter(l -> l.matches("^\\d{4}-\\d{2}-\\d{2}T.*")))
                .hasSize(2).satisfiesExactly(l -> assertThat(l).contains("PARKED"),
                        l -> assertThat(l).contains("DRY_RUN"));
        assertThat(run.out()).contains("6 events (").contains("; showing the latest 2 (--limit)");
    }

    @Test
    void shouldPrintOneJsonDocumentWithTheQueryEventsTotalsAndScan() throws Exception {
        JsonNode report = auditJson("--bucket", "photos", "--key", "d.jpg");

        assertThat(report.path("query").path("bucket").asText()).isEqualTo("photos");
        assertThat(report.path("query").path("key").asText()).isEqualTo("d.jpg");
        assertThat(Instant.parse(report.path("query").path("since").asText()))
                .isBetween(NOW.minus(Duration.ofHours(25)), Instant.now().minus(Duration.ofHours(24)));
        JsonNode first = report.path("events").get(0);
        assertThat(first.path("partition").asInt()).isEqualTo(ShardPartitioner.shardOf("photos/d.jpg", PARTITIONS));
        assertThat(first.path("offset").isIntegralNumber()).isTrue();
        assertThat(first.path("timestamp").asText()).isEqualTo(AN_HOUR_AGO.plusSeconds(3).toString());
        assertThat(first.path("event").path("actionId").asText()).isEqualTo("action-d.jpg");
        assertThat(first.path("event").path("versionId").asText()).isEqualTo("v-d.jpg");
        assertThat(first.path("event").path("ruleId").asText()).isEqualTo("rule-1");
        assertThat(first.path("event").path("kind").asText()).isEqualTo("EXPIRATION_DAYS");
        assertThat(first.path("event").path("reason").asText()).isEqualTo("because BLOCKED");
        assertThat(first.path("event").path("attempt").asInt()).isEqualTo(1);
        assertThat(first.path("event").path("at").asText()).isEqualTo(AN_HOUR_AGO.plusSeconds(3).toString());
        assertThat(report.path("matched").asLong()).isEqualTo(2);
        assertThat(report.path("totals").path("BLOCKED").asLong()).isEqualTo(1);
        assertThat(report.path("totals").path("PARKED").asLong()).isEqualTo(1);
        assertThat(report.path("undecodable").isIntegralNumber()).isTrue();
        assertThat(report.path("elapsedMillis").isIntegralNumber()).isTrue();
    }

    @Test
    void shouldSkipAndCountARecordThatIsNotAnEvent() throws Exception {
        JsonNode bucket = auditJson("--bucket", "photos");
        JsonNode poisonsKey = auditJson("--bucket", "photos", "--key", "poison");
        JsonNode otherBucket = auditJson("--bucket", "logs");

        assertThat(bucket.path("undecodable").asLong()).isEqualTo(1);
        assertThat(bucket.path("matched").asLong()).isEqualTo(6);
        assertThat(poisonsKey.path("undecodable").asLong()).isEqualTo(1);
        assertThat(poisonsKey.path("matched").asLong()).isZero();
        // Another bucket's records are never decoded: its bad bytes are not this bucket's to count.
        assertThat(otherBucket.path("undecodable").asLong()).isZero();
        assertThat(outcomes(otherBucket)).containsExactly("DONE");
    }

    @Test
    void shouldFailWithAClearMessageWhenTheTopicIsMissing() {
        Run run = audit("--bucket", "photos", "--set", "topic.prefix=" + prefix + "nothing-here.");

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("error: topic " + prefix + "nothing-here.lifecycle-events does not exist");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void shouldFailWithinTheTimeoutWhenKafkaDoesNotAnswer() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        long started = System.nanoTime();

        Run run = audit("--bucket", "photos", "--timeout", "1",
                "--set", "kafka.bootstrap.servers=127.0.0.1:" + closedPort);

        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("error: Kafka at 127.0.0.1:" + closedPort + " did not answer within 1 s");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void shouldRefuseAnUnreadableTimeAsAUsageError() {
        Run run = audit("--bucket", "photos", "--since", "yesterday");

        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("'yesterday' is neither an instant");
    }
}
