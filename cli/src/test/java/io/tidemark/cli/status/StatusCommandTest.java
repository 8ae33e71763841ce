package io.tidemark.cli.status;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.cli.ServicesCommand;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.client.SeaweedCheck;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

@LocalClusterTest
class StatusCommandTest {

    private static int run(StringWriter out, String... args) {
        return new CommandLine(new ServicesCommand()).setOut(new PrintWriter(out)).execute(args);
    }

    @Test
    void shouldReportDegradedWithTheReasonsWhenNoServiceRuns(LocalCluster cluster, ClusterNamespace ns) {
        StringWriter out = new StringWriter();
        int status = run(out, "status", "--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-status",
                "--set", "topic.prefix=" + ns.topicPrefix() + "status.");
        assertThat(status).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).startsWith("status: degraded").contains("no populator leads")
                .contains("no replay-streams instance is reporting")
                .contains("lifecycle settings: none recorded yet (the first service to start records its own)");
    }

    @Test
    void shouldShowTestModeAndTheLifecycleSettingsTheServicesRecorded(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String chroot = ns.zookeeperChroot() + "-test-mode";
        TidemarkConfig demo = new TidemarkConfig(Map.of("zookeeper.connect", cluster.zookeeperConnect(),
                "zookeeper.chroot", chroot, "lifecycle.day.seconds", "60", "lifecycle.test.mode", "true"));
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(demo)) {
            new LifecycleSettings(zk.client()).verify(demo, "populator 1@demo", Instant.parse("2026-05-02T10:00:00Z"));
        }
        // The status command itself runs on real days: what it shows is the cluster's record, not its own settings.
        StringWriter out = new StringWriter();
        run(out, "status", "--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(), "--set", "zookeeper.chroot=" + chroot,
                "--set", "topic.prefix=" + ns.topicPrefix() + "test-mode.");
        assertThat(out.toString()).contains("TEST MODE: a lifecycle day lasts 60 s (lifecycle.test.mode=true); not "
                + "for real data\nlifecycle settings: lifecycle.day.seconds=60, lifecycle.due.policy=aws, "
                + "lifecycle.test.mode=true, lifecycle.validation.mode=aws (recorded by populator 1@demo at "
                + "2026-05-02T10:00:00Z)");

        StringWriter settings = new StringWriter();
        assertThat(run(settings, "lifecycle", "settings", "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + chroot)).isZero();
        assertThat(settings.toString()).startsWith("TEST MODE (not for real data): lifecycle.day.seconds=60");
        StringWriter reset = new StringWriter();
        assertThat(run(reset, "lifecycle", "settings", "--reset", "--set", "zookeeper.connect="
                + cluster.zookeeperConnect(), "--set", "zookeeper.chroot=" + chroot)).isZero();
        assertThat(reset.toString()).startsWith("removed the lifecycle settings recorded by populator 1@demo at "
                + "2026-05-02T10:00:00Z: lifecycle.day.seconds=60").contains("the next service to start records");
        StringWriter none = new StringWriter();
        run(none, "lifecycle", "settings", "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + chroot);
        assertThat(none.toString()).startsWith("none recorded at " + chroot + "/lifecycle/settings");
    }

    @Test
    void shouldSayUnreachableWhenKafkaDoesNotAnswer() throws Exception {
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        StringWriter out = new StringWriter();
        int status = run(out, "status", "--set", "kafka.bootstrap.servers=127.0.0.1:" + closedPort,
                "--set", "kafka.admin.request.timeout.ms=1000", "--set", "kafka.admin.default.api.timeout.ms=2000");
        assertThat(status).isEqualTo(2);
        assertThat(out.toString()).startsWith("status: unreachable").contains("does not answer");
    }

    @Test
    void shouldReportTheSameOffsetsAndLagAsKafkasConsumerGroupsTool(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String prefix = ns.topicPrefix() + "lag.";
        String[] settings = {"--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-lag",
                "--set", "topic.prefix=" + prefix, "--set", "shard.bits=1"};
        assertThat(run(new StringWriter(), concat(new String[] {"topics", "create"}, settings))).isZero();
        String topic = prefix + "object-tasks";
        String group = prefix + "object-processor";
        Map<String, Object> clientSettings = Map.of("bootstrap.servers", cluster.kafkaBootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(clientSettings, new ByteArraySerializer(),
                new ByteArraySerializer()); Admin admin = Admin.create(clientSettings)) {
            for (int i = 0; i < 8; i++) {
                producer.send(new ProducerRecord<>(topic, i < 5 ? 0 : 1, null, new byte[] {1})).get();
            }
            // Partition 0 committed at 2 (lag 3); partition 1 never committed.
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(2)))
                    .all().get();
        }

        StringWriter json = new StringWriter();
        run(json, concat(new String[] {"status", "--json"}, settings));
        JsonNode report = new ObjectMapper().readTree(json.toString());
        Map<Integer, JsonNode> ours = new TreeMap<>();
        report.path("partitions").forEach(p -> {
            if (p.path("group").asText().equals(group)) {
                ours.put(p.path("partition").asInt(), p);
            }
        });

        Map<Integer, String[]> tool = consumerGroupsTool(cluster.kafkaBootstrapServers(), group, topic);
        // The tool lists the partitions the group committed on; there, status shows its CURRENT-OFFSET,
        // LOG-END-OFFSET and LAG figure for figure.
        assertThat(tool.keySet()).containsExactly(0);
        assertThat(ours.keySet()).containsExactly(0, 1);
        assertThat(tool.get(0)).containsExactly("2", "5", "3");
        assertThat(ours.get(0).path("committed").asLong()).isEqualTo(2);
        assertThat(ours.get(0).path("end").asLong()).isEqualTo(5);
        assertThat(ours.get(0).path("lag").asLong()).isEqualTo(3);
        // A partition the group never committed on is absent from the tool's table (the group has no members);
        // status lists it and counts what a new member would read from the log start: work still to do.
        assertThat(ours.get(1).path("committed").asLong()).isEqualTo(-1);
        assertThat(ours.get(1).path("end").asLong()).isEqualTo(3);
        assertThat(ours.get(1).path("lag").asLong()).isEqualTo(3);
        // No transactions wrote this topic: every offset is a record, and the counted backlog equals the lag.
        assertThat(ours.values()).allSatisfy(p -> {
            assertThat(p.path("backlog").asLong()).isEqualTo(3);
            assertThat(p.path("backlogCounted").asBoolean()).isTrue();
        });
    }

    /**
     * The dead letters are what is parked now: a replayed or purged task leaves a tombstone, and a transactional
     * writer leaves commit markers, neither of which is a parked record.
     */
    @Test
    void shouldCountParkedRecordsNotOffsets(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        String prefix = ns.topicPrefix() + "dlq.";
        String[] settings = {"--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-dlq",
                "--set", "topic.prefix=" + prefix, "--set", "shard.bits=1"};
        assertThat(run(new StringWriter(), concat(new String[] {"topics", "create"}, settings))).isZero();
        TopicRegistry topics = TopicRegistry.from(new TidemarkConfig(Map.of("topic.prefix", prefix, "shard.bits", "1")));
        var dlq = topics.objectTasksDlq();
        io.tidemark.messages.DeadLetter letter = new io.tidemark.messages.DeadLetter(null, "INVALID", "test", 0,
                Instant.EPOCH, Instant.EPOCH, "t/0@0", "AA==");
        Map<String, Object> plain = Map.of("bootstrap.servers", cluster.kafkaBootstrapServers());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(plain, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(dlq.record(0, "b/one#a1", letter)).get();
            producer.send(dlq.record(0, "b/two#a2", letter)).get();
            producer.send(new ProducerRecord<>(dlq.name(), 0, dlq.keySerde().serializer().serialize(dlq.name(),
                    "b/two#a2"), null)).get();
        }
        Map<String, Object> transactional = new java.util.HashMap<>(plain);
        transactional.put("transactional.id", prefix + "test-writer");
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(transactional, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topics.replayStreamsDlq().name(), new byte[] {1}));
            producer.commitTransaction();
        }

        StringWriter json = new StringWriter();
        run(json, concat(new String[] {"status", "--json"}, settings));
        JsonNode report = new ObjectMapper().readTree(json.toString());
        assertThat(report.path("objectTasksDlq").asLong()).as(json.toString()).isEqualTo(1);
        assertThat(report.path("replayStreamsDlq").asLong()).as(json.toString()).isEqualTo(1);
        StringWriter text = new StringWriter();
        run(text, concat(new String[] {"status"}, settings));
        assertThat(text.toString()).contains("1 object task(s) parked");
    }

    /** Runs kafka-consumer-groups (Kafka's tool, from Maven Central) and returns, per partition, its figures. */
    private static Map<Integer, String[]> consumerGroupsTool(String bootstrap, String group, String topic)
            throws Exception {
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", classPath, "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
                "--bootstrap-server", bootstrap, "--describe", "--group", group).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        Map<Integer, String[]> rows = new TreeMap<>();
        for (String line : output.lines().toList()) {
            String[] cells = line.trim().split("\\s+");
            if (cells.length >= 6 && cells[0].equals(group) && cells[1].equals(topic)) {
                rows.put(Integer.parseInt(cells[2]), new String[] {cells[3], cells[4], cells[5]});
            }
        }
        return rows;
    }

    private static String[] concat(String[] first, String[] second) {
        return Stream.concat(Arrays.stream(first), Arrays.stream(second)).toArray(String[]::new);
    }

    /**
     * Issue 11: how far the populator is behind is measured against the filer itself — the events its meta-log holds
     * past the committed checkpoint — not only by the age of the last published event.
     */
    @Test
    void shouldCountTheFilerEventsPastThePopulatorsCheckpoint(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        String prefix = ns.topicPrefix() + "behind.";
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start()) {
            emulator.s3().createBucket("b", false);
            for (int i = 0; i < 6; i++) {
                emulator.s3().putObject("b", "k" + i, 1, Map.of(), Map.of());
            }
            List<SubscribeMetadataResponse> events = emulator.store().events(0).stream()
                    .filter(e -> e.getDirectory().startsWith("/buckets")).toList();
            String[] settings = {"--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                    "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                    "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-behind",
                    "--set", "topic.prefix=" + prefix, "--set", "filer.address=" + emulator.filerAddress()};
            assertThat(run(new StringWriter(), concat(new String[] {"topics", "create"}, settings))).isZero();
            // The populator has published the first two events of the bucket.
            SubscribeMetadataResponse published = events.get(1);
            TopicRegistry topics = TopicRegistry.from(new TidemarkConfig(Map.of("topic.prefix", prefix)));
            commitCheckpoint(cluster, topics, new PopulatorCheckpoint(published.getTsNs(), 1, 2, 0));

            StringWriter json = new StringWriter();
            int status = run(json, concat(new String[] {"status", "--json", "--max-populator-lag", "0"}, settings));
            JsonNode report = new ObjectMapper().readTree(json.toString());
            assertThat(report.path("populatorBacklog").path("events").asLong()).as(json.toString())
                    .isEqualTo(events.size() - 2);
            assertThat(report.path("populatorBacklog").path("oldestUnpublished").asText())
                    .isEqualTo(EpochNanos.toInstant(events.get(2).getTsNs()).toString());
            assertThat(status).isEqualTo(1);
            assertThat(report.path("reasons").toString()).contains("the populator is " + (events.size() - 2)
                    + " filer event(s) behind");

            StringWriter text = new StringWriter();
            run(text, concat(new String[] {"status"}, settings));
            assertThat(text.toString()).contains((events.size() - 2) + " filer event(s) not yet published");

            // Issue 34: a meta-log gap the populator found is reported for a day.
            PopulatorCheckpoint.Gap gap = new PopulatorCheckpoint.Gap(1, events.get(0).getTsNs(),
                    EpochNanos.of(Instant.now()), 1);
            commitCheckpoint(cluster, topics, new PopulatorCheckpoint(published.getTsNs(), 1, 2, 0, null, null, gap));
            StringWriter gapped = new StringWriter();
            run(gapped, concat(new String[] {"status", "--json"}, settings));
            assertThat(gapped.toString()).contains("meta-log gap found at",
                    "from " + EpochNanos.toInstant(1) + " to " + EpochNanos.toInstant(events.get(0).getTsNs()));
        }

        StringWriter unreachable = new StringWriter();
        run(unreachable, "status", "--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-behind",
                "--set", "topic.prefix=" + prefix, "--set", "filer.address=127.0.0.1:1");
        assertThat(unreachable.toString()).contains("the filer at 127.0.0.1:1 does not answer");
    }

    /**
     * Issue 44: status shows what it found of SeaweedFS — the filer's version, and whether the S3 gateway serves
     * LifecycleDelete (asked with a call that deletes nothing) — and a gateway without it is a reason to be degraded.
     */
    @Test
    void shouldShowTheFilersVersionAndWhetherTheGatewayServesLifecycleDelete(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start()) {
            String[] settings = {"--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                    "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                    "--set", "zookeeper.chroot=" + ns.zookeeperChroot() + "-seaweed",
                    "--set", "topic.prefix=" + ns.topicPrefix() + "seaweed.",
                    "--set", "filer.address=" + emulator.filerAddress(),
                    "--set", "s3.grpc.address=" + emulator.s3GrpcAddress()};
            StringWriter text = new StringWriter();
            run(text, concat(new String[] {"status"}, settings));
            assertThat(text.toString()).contains("seaweedfs: the filer at " + emulator.filerAddress()
                            + " answers: version \"tidemark-filer-emulator\"\n",
                    "seaweedfs: the S3 gateway at " + emulator.s3GrpcAddress() + " serves LifecycleDelete "
                            + "(SeaweedFS 4.24 or newer)\n")
                    .doesNotContain("does not serve");

            emulator.faults().fail("LifecycleDelete", io.grpc.Status.Code.UNIMPLEMENTED, -1);
            StringWriter json = new StringWriter();
            int status = run(json, concat(new String[] {"status", "--json"}, settings));
            JsonNode report = new ObjectMapper().readTree(json.toString());
            assertThat(status).isEqualTo(1);
            assertThat(report.path("seaweed").path("gateway").path("state").asText()).as(json.toString())
                    .isEqualTo("UNIMPLEMENTED");
            assertThat(report.path("seaweed").path("filer").path("version").asText())
                    .isEqualTo("tidemark-filer-emulator");
            assertThat(report.path("reasons").toString()).contains("the S3 gateway at " + emulator.s3GrpcAddress()
                    + " does not serve LifecycleDelete (UNIMPLEMENTED", "Tidemark needs SeaweedFS 4.24 or newer");
        }
    }

    @Test
    void shouldPrintTheSeaweedFsReleaseTheFilerGave() {
        StatusReport report = new StatusReport(StatusReport.Health.HEALTHY, List.of(), List.of(), "host-1", null, 0,
                null, 0L, 1, List.of(), 0, 0, Controls.NONE, null, new StatusReport.SeaweedFs(
                new SeaweedCheck.Filer("filer:18888", "30GB 4.44 1a2b3c", "4.44", false, null),
                new SeaweedCheck.Gateway("s3:18333", SeaweedCheck.Gateway.State.SERVED, null)));
        StringWriter text = new StringWriter();
        StatusCommand.print(report, new PrintWriter(text), Instant.parse("2026-11-23T12:00:00Z"));
        assertThat(text.toString()).contains("seaweedfs: the filer at filer:18888 answers: SeaweedFS 4.44 (version "
                + "\"30GB 4.44 1a2b3c\")\nseaweedfs: the S3 gateway at s3:18333 serves LifecycleDelete (SeaweedFS 4.24 "
                + "or newer)\n");
    }

    /**
     * Issue 44: status says in one line whether Tidemark's ZooKeeper nodes are world-writable (no
     * zookeeper.auth.digest when they were created), and --json carries what it read.
     */
    @Test
    void shouldSayWhetherTheZooKeeperNodesAreWorldWritable(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String open = ns.zookeeperChroot() + "-acl-open";
        String closed = ns.zookeeperChroot() + "-acl-digest";
        for (String chroot : List.of(open, closed)) {
            Map<String, String> values = new java.util.HashMap<>(Map.of("zookeeper.connect",
                    cluster.zookeeperConnect(), "zookeeper.chroot", chroot));
            if (chroot.equals(closed)) {
                values.put("zookeeper.auth.digest", "tidemark:s3cret");
            }
            TidemarkConfig service = new TidemarkConfig(values);
            try (ZooKeeperConnection zk = ZooKeeperConnection.start(service)) {
                new LifecycleSettings(zk.client()).verify(service, "populator 1@h", Instant.EPOCH);
                new io.tidemark.zookeeper.LifecycleControls(zk.client()).pause(Optional.of("photos"),
                        new ControlFlag(Instant.EPOCH, "ops@h", null));
            }
        }
        String[] common = {"--set", "kafka.bootstrap.servers=" + cluster.kafkaBootstrapServers(),
                "--set", "zookeeper.connect=" + cluster.zookeeperConnect(),
                "--set", "topic.prefix=" + ns.topicPrefix() + "acl."};

        StringWriter text = new StringWriter();
        run(text, concat(new String[] {"status", "--set", "zookeeper.chroot=" + open}, common));
        assertThat(text.toString()).containsPattern("\nzookeeper: WORLD-WRITABLE: [^\n]*"
                + java.util.regex.Pattern.quote(open + "/lifecycle/control (cdrwa)")
                + "[^\n]*zookeeper\\.auth\\.digest[^\n]*\n");
        StringWriter json = new StringWriter();
        run(json, concat(new String[] {"status", "--json", "--set", "zookeeper.chroot=" + open}, common));
        JsonNode acl = new ObjectMapper().readTree(json.toString()).path("zookeeperAcl");
        assertThat(acl.path("worldWritable").size()).as(json.toString()).isGreaterThan(0);
        assertThat(acl.path("worldWritable").toString()).contains(open + "/lifecycle/control/paused");

        StringWriter safe = new StringWriter();
        run(safe, concat(new String[] {"status", "--set", "zookeeper.chroot=" + closed, "--set",
                "zookeeper.auth.digest=tidemark:s3cret"}, common));
        assertThat(safe.toString()).contains("\nzookeeper: no node under " + closed + " grants world:anyone more "
                + "than read").doesNotContain("WORLD-WRITABLE");
        StringWriter safeJson = new StringWriter();
        run(safeJson, concat(new String[] {"status", "--json", "--set", "zookeeper.chroot=" + closed}, common));
        JsonNode closedAcl = new ObjectMapper().readTree(safeJson.toString()).path("zookeeperAcl");
        assertThat(closedAcl.path("worldWritable").isArray()).as(safeJson.toString()).isTrue();
        assertThat(closedAcl.path("worldWritable").size()).isZero();
    }

    @Test
    void shouldPrintTheWorldWritableNodesInOneLine() {
        StatusReport report = new StatusReport(StatusReport.Health.HEALTHY, List.of(), List.of(), "host-1", null, 0,
                null, 0L, 1, List.of(), 0, 0, Controls.NONE, null, null, new io.tidemark.zookeeper.AclCheck.Result(
                "/tidemark", false, 3, List.of(new io.tidemark.zookeeper.AclCheck.Node("/tidemark", "cdrwa"),
                new io.tidemark.zookeeper.AclCheck.Node("/tidemark/lifecycle/control", "cdrwa"))));
        StringWriter text = new StringWriter();
        StatusCommand.print(report, new PrintWriter(text), Instant.parse("2026-11-23T12:00:00Z"));
        assertThat(text.toString()).contains("\nzookeeper: WORLD-WRITABLE: world:anyone may change 2 of the 3 nodes "
                + "read under /tidemark: /tidemark (cdrwa), /tidemark/lifecycle/control (cdrwa); anyone who reaches "
                + "ZooKeeper can pause, resume or dry-run deletes and rewrite the bucket registry; set "
                + "zookeeper.auth.digest on every service (docs/operations.md#zookeeper-acls)\n");
    }

    /** Writes the populator's checkpoint record as the populator commits it. */
    private static void commitCheckpoint(LocalCluster cluster, TopicRegistry topics, PopulatorCheckpoint checkpoint)
            throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of("bootstrap.servers", cluster.kafkaBootstrapServers()), new ByteArraySerializer(),
                new ByteArraySerializer())) {
            String name = topics.populatorCheckpoint().name();
            producer.send(new ProducerRecord<>(name, topics.populatorCheckpoint().keySerde().serializer()
                    .serialize(name, PopulatorCheckpoint.KEY), topics.populatorCheckpoint().valueSerde()
                    .serializer().serialize(name, checkpoint))).get();
        }
    }

    @Test
    void shouldPrintOffsetsLikeTheConsumerGroupsToolWithTheBacklogAndWalkFreshness() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        StatusReport report = new StatusReport(StatusReport.Health.DEGRADED, List.of("3 object task(s) parked"),
                List.of(new GroupLag.Partition("t.object-processor", "t.object-tasks", 0, 40, 42, 2, 0, true),
                        new GroupLag.Partition("t.object-processor", "t.object-tasks", 1, -1, 5, 5, 5, false)),
                "host-1", now.minusSeconds(3), 120, new StatusReport.Backlog(4, now.minusSeconds(8), null), 7L, 1,
                List.of(new StatusReport.Walk("photos", true, now.minusSeconds(3_700), null, 0),
                        new StatusReport.Walk("logs", true, null, "steady-logs-1", 4),
                        new StatusReport.Walk("archive", true, now.minusSeconds(60), null, 0, null, 2)), 3, 0,
                new Controls(Optional.empty(), Map.of("logs", new ControlFlag(now.minusSeconds(60), "ops@h1", "audit")),
                        Map.of("photos", new ControlFlag(now.minusSeconds(30), "ops@h1", null)),
                        Map.of("photos", new ControlFlag(now.minusSeconds(20), "object-processor 1@h2", "DRY_RUN"))));
        StringWriter text = new StringWriter();
        StatusCommand.print(report, new PrintWriter(text), now);
        assertThat(text.toString()).contains("status: degraded", "  - 3 object task(s) parked")
                .contains("BACKLOG").doesNotContain(" LAG")
                // Partition 0: two offsets past the committed one, both transaction markers; partition 1 estimated.
                .containsPattern("t\\.object-processor +t\\.object-tasks +0 +40 +42 +0\\n")
                .containsPattern("t\\.object-tasks +1 +- +5 +~5\\n")
                .contains("led by host-1, 120 events published", "(3s ago)", "7 timers pending on 1 instance(s)")
                .contains("4 filer event(s) not yet published, the oldest from 8s ago")
                .contains("1h1m ago", "never", "steady-logs-1, 4 pages")
                .contains("bucket archive: 2 null delete marker(s) that no lifecycle request can remove")
                .contains("controls: bucket logs PAUSED since 2026-11-23T11:59:00Z by ops@h1: audit",
                        "controls: bucket photos DRY RUN since 2026-11-23T11:59:30Z by ops@h1",
                        "controls: bucket photos OWED A WALK for tasks only recorded (DRY_RUN, first at "
                                + "2026-11-23T11:59:40Z); sent once it acts again")
                .doesNotContain("held tasks wait");
    }

    @Test
    void shouldPrintTheConductorsLastPassOrThatNoneWasRecorded() {
        Instant now = Instant.parse("2026-11-23T12:00:00Z");
        Controls none = new Controls(Optional.empty(), Map.of(), Map.of(), Map.of());
        StringWriter skipped = new StringWriter();
        StatusCommand.print(new StatusReport(StatusReport.Health.HEALTHY, List.of(), List.of(), "host-1", null, 0,
                null, 0L, 1, List.of(), 0, 0, none, null, null, null, new ConductorPassRecord(now.minusSeconds(7_200),
                "skipped-backlog", 0, 2, "object-processor backlog 120000 > 100000")), new PrintWriter(skipped), now);
        assertThat(skipped.toString()).contains("conductor: last pass skipped-backlog at 2026-11-23T10:00:00Z (2h0m "
                + "ago), 0 walk(s) seeded, 2 under way (object-processor backlog 120000 > 100000)");

        StringWriter never = new StringWriter();
        StatusCommand.print(new StatusReport(StatusReport.Health.HEALTHY, List.of(), List.of(), "host-1", null, 0,
                null, 0L, 1, List.of(), 0, 0, none, null, null, null, null), new PrintWriter(never), now);
        assertThat(never.toString()).contains("conductor: no pass recorded");
    }
}
