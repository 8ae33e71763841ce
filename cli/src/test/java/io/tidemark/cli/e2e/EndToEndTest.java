package io.tidemark.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tidemark.cli.ServicesCommand;
import io.tidemark.cli.ServicesMain;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.s3.ObjectVersionInfo;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.localcluster.ServiceProcess;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The whole pipeline, every service as its own process (populator, replay-streams, object processor, bucket
 * processor; the conductor run once at a time as a CronJob would), from S3 operations to the filer's final state,
 * with a kill -9 of replay-streams while timers are pending, and beside it an operator's pause and dry run
 * ({@link OperatorControlsScenario}). A lifecycle day lasts five seconds. At the end, what
 * operators would see of it: a real Prometheus scrapes every service (a conductor on its schedule too) and every
 * dashboard query must return data ({@link DashboardCheck}).
 *
 * <p>What must happen is written down per object from S3's rules (the model below), not computed by the engine:
 * which objects go, which stay, and before when none may go.
 */
@LocalClusterTest
class EndToEndTest {

    private static final int DAY = 5;

    /** One object's fate under S3's rules: gone by the end, or kept; never gone before {@code notBefore}. */
    private record Expectation(String bucket, String key, boolean gone, Instant notBefore) {
    }

    @Test
    void shouldCarryOutEveryDueActionAndNothingElseAcrossAKillNineOrWhileOperatorsHoldIt(
            LocalCluster cluster, ClusterNamespace ns, @TempDir Path state, @TempDir Path scratch) throws Exception {
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start()) {
            S3Gateway s3 = emulator.s3();
            List<String> settings = settings(cluster, ns, emulator, state);
            List<ServiceProcess> services = new ArrayList<>();
            try {
                services.add(start("populator", settings));
                services.add(start("object-processor", settings));
                services.add(start("bucket-processor", settings));
                ServiceProcess replay = start("replay-streams", settings);
                services.add(replay);
                // Never fires during the test (passes run one at a time below); scraped at the end.
                List<String> scheduled = new ArrayList<>(List.of("conductor", "--schedule", "0 0 1 1 *"));
                scheduled.addAll(settings);
                services.add(ServiceProcess.start(ServicesMain.class, "256m", Map.of(),
                        scheduled.toArray(String[]::new)));
                for (ServiceProcess service : services) {
                    await().atMost(Duration.ofSeconds(120)).until(() -> service.get("/readyz").statusCode() == 200);
                }

                OperatorControlsScenario controls = new OperatorControlsScenario(s3, settings);
                controls.prepare();
                Instant t0 = Instant.now();
                List<Expectation> model = new ArrayList<>(plainBucket(s3, t0));
                // The rule for edit/ goes from two days to six before edit/e falls due: its timer must follow.
                s3.putLifecycle("e2e-plain", plainRules(t0, 6));
                Instant edited = Instant.now();
                model.add(new Expectation("e2e-plain", "edit/e", true, edited.plusSeconds(6L * DAY - 8)));
                model.addAll(versionedBucket(s3));
                model.addAll(suspendedBucket(s3));

                // Replay-streams dies (SIGKILL) with every timer pending; a new one takes over from its changelog.
                replay.close();
                services.remove(replay);
                ServiceProcess successor = start("replay-streams", settings);
                services.add(successor);
                await().atMost(Duration.ofSeconds(120)).until(() -> successor.get("/readyz").statusCode() == 200);

                await().atMost(Duration.ofSeconds(180)).pollInterval(Duration.ofSeconds(3)).untilAsserted(() -> {
                    conductorPass(settings);
                    assertSafe(s3, model);
                    assertThat(pending(s3, model)).as("due objects still present").isEmpty();
                    assertThat(versionIds(s3, "e2e-versioned", "doc")).hasSize(2);
                    assertThat(s3.latest("e2e-versioned", "gone")).as("the lone expired marker").isEmpty();
                });
                assertSafe(s3, model);
                assertThat(s3.versions("e2e-versioned", "kept-marker")).as("a marker with a version under it stays")
                        .hasSize(2);
                assertThat(listUploads(s3)).as("the forgotten upload was aborted").isEmpty();
                assertThat(dlqRecords(settings)).as("nothing parked").contains("0 parked");
                controls.verify();
                Optional<Path> prometheus = PrometheusServer.binary();
                if (prometheus.isPresent()) {
                    DashboardCheck.assertEveryPanelHasData(prometheus.get(), services, scratch);
                }
            } finally {
                for (ServiceProcess service : services) {
                    service.close();
                }
            }
        }
    }

    @Test
    void shouldHaveAPrometheusToCheckTheDashboardsWith() {
        // The dashboard check above runs only where the binary is; this says so in the report where it is not.
        assumeTrue(PrometheusServer.binary().isPresent(),
                "prometheus is not installed (.ci/run installs Debian's package when apt is there): the end-to-end "
                        + "test did not check the dashboards");
    }

    static List<String> settings(LocalCluster cluster, ClusterNamespace ns, FilerEmulator emulator, Path state) {
        Map<String, String> s = new LinkedHashMap<>();
        s.put("kafka.bootstrap.servers", cluster.kafkaBootstrapServers());
        s.put("zookeeper.connect", cluster.zookeeperConnect());
        s.put("zookeeper.chroot", ns.zookeeperChroot() + "-e2e");
        s.put("topic.prefix", ns.topicPrefix() + "e2e.");
        s.put("filer.address", emulator.filerAddress());
        s.put("s3.grpc.address", emulator.s3GrpcAddress());
        s.put("shard.bits", "2");
        s.put("lifecycle.day.seconds", String.valueOf(DAY));
        s.put("lifecycle.test.mode", "true");
        s.put("lifecycle.due.policy", "exact");
        s.put("management.host", "127.0.0.1");
        s.put("management.port", "0");
        s.put("replay-streams.state.dir", state.toString());
        s.put("replay-streams.status.interval.ms", "1000");
        s.put("bucket-processor.status.interval.ms", "1000");
        s.put("conductor.walk.stale.ms", "60000");
        s.put("kafka.consumer.session.timeout.ms", "6000");
        s.put("kafka.consumer.heartbeat.interval.ms", "500");
        s.put("kafka.streams.commit.interval.ms", "200");
        List<String> args = new ArrayList<>();
        s.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        return args;
    }

    static ServiceProcess start(String service, List<String> settings) throws Exception {
        List<String> args = new ArrayList<>(List.of(service));
        args.addAll(settings);
        return ServiceProcess.start(ServicesMain.class, "320m", Map.of(), args.toArray(String[]::new));
    }

    private static String plainRules(Instant t0, int editDays) {
        String yesterday = t0.minus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.DAYS).toString();
        return "<LifecycleConfiguration>"
                + rule("logs", "<Filter><Prefix>logs/</Prefix></Filter>", "<Expiration><Days>2</Days></Expiration>")
                + rule("scratch", "<Filter><And><Prefix>tmp/</Prefix><Tag><Key>class</Key><Value>scratch</Value></Tag>"
                        + "</And></Filter>", "<Expiration><Days>1</Days></Expiration>")
                + rule("big", "<Filter><And><Prefix>big/</Prefix><ObjectSizeGreaterThan>1000</ObjectSizeGreaterThan>"
                        + "</And></Filter>", "<Expiration><Days>1</Days></Expiration>")
                + rule("old", "<Filter><Prefix>old/</Prefix></Filter>", "<Expiration><Date>" + yesterday
                        + "</Date></Expiration>")
                + rule("edit", "<Filter><Prefix>edit/</Prefix></Filter>", "<Expiration><Days>" + editDays
                        + "</Days></Expiration>")
                + rule("uploads", "<Filter><Prefix>uploads/</Prefix></Filter>", "<AbortIncompleteMultipartUpload>"
                        + "<DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload>")
                + "</LifecycleConfiguration>";
    }

    private static String rule(String id, String filter, String action) {
        return "<Rule><ID>" + id + "</ID>" + filter + "<Status>Enabled</Status>" + action + "</Rule>";
    }

    /** An unversioned bucket: timers (Days, tags, size), the walker (a past Date), an overwrite, an upload. */
    private static List<Expectation> plainBucket(S3Gateway s3, Instant t0) throws InterruptedException {
        s3.createBucket("e2e-plain", false);
        s3.putLifecycle("e2e-plain", plainRules(t0, 2));
        Thread.sleep(500);
        s3.putObject("e2e-plain", "logs/a", 10, Map.of(), Map.of());
        s3.putObject("e2e-plain", "logs/b", 10, Map.of(), Map.of());
        s3.putObject("e2e-plain", "logs/rewritten", 10, Map.of(), Map.of());
        s3.putObject("e2e-plain", "tmp/x", 10, Map.of("class", "scratch"), Map.of());
        s3.putObject("e2e-plain", "tmp/y", 10, Map.of(), Map.of());
        s3.putObject("e2e-plain", "tmp/retagged", 10, Map.of("class", "scratch"), Map.of());
        s3.putObject("e2e-plain", "big/large", 5_000, Map.of(), Map.of());
        s3.putObject("e2e-plain", "big/small", 10, Map.of(), Map.of());
        s3.putObject("e2e-plain", "old/o1", 10, Map.of(), Map.of());
        s3.putObject("e2e-plain", "keep/k", 10, Map.of(), Map.of());
        s3.putObject("e2e-plain", "edit/e", 10, Map.of(), Map.of());
        s3.createUpload("e2e-plain", "uploads/forgotten.iso");
        Instant now = Instant.now();
        // Overwritten four seconds on: its two days count from the overwrite.
        Thread.sleep(4_000);
        s3.putObject("e2e-plain", "logs/rewritten", 20, Map.of(), Map.of());
        Instant rewritten = Instant.now();
        // Re-tagged before its day is over: the scratch rule no longer selects it.
        s3.putTags("e2e-plain", "tmp/retagged", null, Map.of("class", "keep"));
        return List.of(
                new Expectation("e2e-plain", "logs/a", true, now.plusSeconds(2L * DAY - 2)),
                new Expectation("e2e-plain", "logs/b", true, now.plusSeconds(2L * DAY - 2)),
                new Expectation("e2e-plain", "logs/rewritten", true, rewritten.plusSeconds(2L * DAY - 2)),
                new Expectation("e2e-plain", "tmp/x", true, now.plusSeconds(DAY - 2)),
                new Expectation("e2e-plain", "tmp/y", false, null),
                new Expectation("e2e-plain", "tmp/retagged", false, null),
                new Expectation("e2e-plain", "big/large", true, now.plusSeconds(DAY - 2)),
                new Expectation("e2e-plain", "big/small", false, null),
                new Expectation("e2e-plain", "old/o1", true, now.minusSeconds(60)),
                new Expectation("e2e-plain", "keep/k", false, null));
    }

    /**
     * A versioned bucket: NoncurrentDays 1 keeping one newer noncurrent version (the walker counts ranks), expired
     * delete markers (only when the marker is alone), a version under legal hold, and an object restored by
     * deleting its delete marker, which must then expire like any current version (its timer comes back through a
     * walk of the key that replay-streams asks for).
     */
    private static List<Expectation> versionedBucket(S3Gateway s3) throws InterruptedException {
        s3.createBucket("e2e-versioned", true);
        s3.putLifecycle("e2e-versioned", "<LifecycleConfiguration>"
                + rule("noncurrent", "<Filter><Prefix></Prefix></Filter>", "<Expiration><ExpiredObjectDeleteMarker>"
                        + "true</ExpiredObjectDeleteMarker></Expiration><NoncurrentVersionExpiration><NoncurrentDays>1"
                        + "</NoncurrentDays><NewerNoncurrentVersions>1</NewerNoncurrentVersions>"
                        + "</NoncurrentVersionExpiration>")
                + rule("restored", "<Filter><Prefix>restored/</Prefix></Filter>", "<Expiration><Days>2</Days>"
                        + "</Expiration>")
                + "</LifecycleConfiguration>");
        Thread.sleep(500);
        for (int i = 0; i < 4; i++) {
            s3.putObject("e2e-versioned", "doc", 10 + i, Map.of(), Map.of());
            Thread.sleep(1_100);
        }
        String lone = s3.putObject("e2e-versioned", "gone", 1, Map.of(), Map.of());
        s3.deleteObject("e2e-versioned", "gone");
        s3.deleteVersion("e2e-versioned", "gone", lone);
        s3.putObject("e2e-versioned", "kept-marker", 1, Map.of(), Map.of());
        s3.deleteObject("e2e-versioned", "kept-marker");
        String held = s3.putObject("e2e-versioned", "held", 1, Map.of(), Map.of());
        s3.putLegalHold("e2e-versioned", "held", held, true);
        s3.putObject("e2e-versioned", "held", 2, Map.of(), Map.of());
        s3.putObject("e2e-versioned", "held", 3, Map.of(), Map.of());
        s3.putObject("e2e-versioned", "restored/r", 1, Map.of(), Map.of());
        Instant restoredWritten = Instant.now();
        String marker = s3.deleteObject("e2e-versioned", "restored/r");
        s3.deleteVersion("e2e-versioned", "restored/r", marker);
        // "held"'s first version ranks second among the noncurrent ones, so the rule makes it due; its legal hold
        // keeps it.
        return List.of(new Expectation("e2e-versioned", "held#" + held, false, null),
                new Expectation("e2e-versioned", "restored/r", true, restoredWritten.plusSeconds(2L * DAY - 2)));
    }

    /**
     * A bucket with versioning suspended: a write makes the key's null version, and expiring it puts a null delete
     * marker on top (the data stays as a noncurrent version in S3's model; here the key is simply no longer current).
     * A size bound selects which.
     */
    private static List<Expectation> suspendedBucket(S3Gateway s3) throws InterruptedException {
        s3.createBucket("e2e-suspended", false);
        s3.setVersioning("e2e-suspended", BucketVersioning.SUSPENDED);
        s3.putLifecycle("e2e-suspended", "<LifecycleConfiguration>"
                + rule("small", "<Filter><ObjectSizeLessThan>100</ObjectSizeLessThan></Filter>",
                        "<Expiration><Days>1</Days></Expiration>")
                + "</LifecycleConfiguration>");
        Thread.sleep(500);
        s3.putObject("e2e-suspended", "small", 10, Map.of(), Map.of());
        s3.putObject("e2e-suspended", "large", 500, Map.of(), Map.of());
        Instant now = Instant.now();
        return List.of(new Expectation("e2e-suspended", "small", true, now.plusSeconds(DAY - 2)),
                new Expectation("e2e-suspended", "large", false, null));
    }

    private static void conductorPass(List<String> settings) {
        List<String> args = new ArrayList<>(List.of("conductor", "--once", "--exit-zero-on-skip"));
        args.addAll(settings);
        new CommandLine(new ServicesCommand()).setOut(new PrintWriter(new StringWriter()))
                .execute(args.toArray(String[]::new));
    }

    private static boolean present(S3Gateway s3, Expectation e) {
        int hash = e.key().indexOf('#');
        if (hash >= 0) {
            return s3.version(e.bucket(), e.key().substring(0, hash), e.key().substring(hash + 1)).isPresent();
        }
        return s3.latest(e.bucket(), e.key()).filter(v -> !v.deleteMarker()).isPresent();
    }

    /** Nothing kept is gone, and nothing is gone before its time. */
    private static void assertSafe(S3Gateway s3, List<Expectation> model) {
        Instant now = Instant.now();
        for (Expectation e : model) {
            if (!e.gone() || now.isBefore(e.notBefore())) {
                assertThat(present(s3, e)).as(e.bucket() + "/" + e.key() + " must still be there").isTrue();
            }
        }
    }

    private static List<String> pending(S3Gateway s3, List<Expectation> model) {
        return model.stream().filter(Expectation::gone).filter(e -> present(s3, e)).map(Expectation::key).toList();
    }

    private static List<String> versionIds(S3Gateway s3, String bucket, String key) {
        return s3.versions(bucket, key).stream().map(ObjectVersionInfo::versionId).toList();
    }

    private static List<String> listUploads(S3Gateway s3) {
        return s3.store().list(s3.uploadsDirectory("e2e-plain"), "", "", false, 0).stream()
                .map(io.tidemark.seaweed.pb.FilerProto.Entry::getName).toList();
    }

    private static String dlqRecords(List<String> settings) {
        List<String> args = new ArrayList<>(List.of("dlq", "list"));
        args.addAll(settings);
        StringWriter out = new StringWriter();
        new CommandLine(new ServicesCommand()).setOut(new PrintWriter(out)).execute(args.toArray(String[]::new));
        return out.toString();
    }
}
