package io.tidemark.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.cli.ServiceProcess;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.localcluster.LocalClusterTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What operators will see: a real Prometheus scrapes every service of a running pipeline (each its own process,
 * the conductor on its schedule), and every expression of every provisioned dashboard must come back with data,
 * every alert rule must evaluate without error, and none may fire on this healthy pipeline.
 */
@LocalClusterTest
class DashboardQueriesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("mvnw"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the repository root");
    }

    @Test
    void shouldAnswerEveryDashboardQueryWithDataFromARealPrometheus(LocalCluster cluster, ClusterNamespace ns,
                                                                   @TempDir Path state, @TempDir Path scratch)
            throws Exception {
        Optional<Path> prometheus = PrometheusServer.binary();
        assumeTrue(prometheus.isPresent(),
                "prometheus is not installed (.ci/run installs Debian's package when apt is there)");
        Path root = repositoryRoot();
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start()) {
            S3Gateway s3 = emulator.s3();
            List<String> settings = new ArrayList<>(EndToEndTest.settings(cluster, ns, emulator, state));
            settings.addAll(List.of("--set", "conductor.schedule=* * * * *",
                    "--set", "bucket-processor.status.interval.ms=1000"));
            List<ServiceProcess> services = new ArrayList<>();
            try {
                for (String service : List.of("populator", "replay-streams", "object-processor", "bucket-processor")) {
                    services.add(EndToEndTest.start(service, settings));
                }
                List<String> conductor = new ArrayList<>(List.of("conductor", "--schedule"));
                conductor.addAll(settings);
                services.add(ServiceProcess.start("256m", Map.of(), conductor.toArray(String[]::new)));
                for (ServiceProcess service : services) {
                    await().atMost(Duration.ofSeconds(120)).until(service::ready);
                }

                // A day of five seconds: logs/ go by timer, old/ by a past date, which the recovery walk finds.
                s3.createBucket("dash", false);
                s3.putLifecycle("dash", "<LifecycleConfiguration>"
                        + "<Rule><ID>logs</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Enabled</Status>"
                        + "<Expiration><Days>1</Days></Expiration></Rule>"
                        + "<Rule><ID>old</ID><Filter><Prefix>old/</Prefix></Filter><Status>Enabled</Status>"
                        + "<Expiration><Date>2020-01-01T00:00:00Z</Date></Expiration></Rule>"
                        + "</LifecycleConfiguration>");
                for (int i = 0; i < 3; i++) {
                    s3.putObject("dash", "logs/" + i, 10, Map.of(), Map.of());
                    s3.putObject("dash", "old/" + i, 10, Map.of(), Map.of());
                }
                await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).until(() ->
                        Stream.of("logs/0", "logs/1", "logs/2", "old/0", "old/1", "old/2")
                                .allMatch(k -> s3.latest("dash", k).isEmpty()));

                List<Integer> ports = services.stream().map(ServiceProcess::managementPort).toList();
                try (PrometheusServer server = PrometheusServer.start(prometheus.get(), scratch, ports,
                        root.resolve("deploy/prometheus/alerts.yml"))) {
                    await().atMost(Duration.ofSeconds(30)).until(() -> server.targetHealth().stream()
                            .filter("up"::equals).count() == services.size());
                    // A few scrapes, so that rate() over the panels' windows has two samples or more.
                    Thread.sleep(4_000);
                    List<String> empty = new ArrayList<>();
                    int queried = 0;
                    try (Stream<Path> files = Files.list(root.resolve("deploy/grafana/dashboards"))) {
                        for (Path file : files.sorted().toList()) {
                            for (JsonNode panel : JSON.readTree(file.toFile()).path("panels")) {
                                for (JsonNode target : panel.path("targets")) {
                                    queried++;
                                    JsonNode data = server.query(target.path("expr").asText());
                                    if (data.path("result").isEmpty()) {
                                        empty.add(file.getFileName() + " / " + panel.path("title").asText() + ": "
                                                + target.path("expr").asText());
                                    }
                                }
                            }
                        }
                    }
                    assertThat(queried).isGreaterThan(30);
                    assertThat(empty).as("dashboard expressions with no data").isEmpty();
                    assertThat(server.ruleHealth()).hasSize(8).allSatisfy((name, health) ->
                            assertThat(health).as(name).isEqualTo("ok"));
                    assertThat(server.query("ALERTS{alertstate=\"firing\"}").path("result"))
                            .as("alerts firing on a healthy pipeline").isEmpty();
                }
            } finally {
                for (ServiceProcess service : services) {
                    service.close();
                }
            }
        }
    }
}
