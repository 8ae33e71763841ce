package io.tidemark.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.localcluster.ServiceProcess;
import io.tidemark.cli.deploy.DeployFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What operators will see of a running pipeline: a real Prometheus scrapes every service, and every expression of
 * every provisioned dashboard must come back with data, every alert rule must evaluate without error, and none may
 * fire on a healthy pipeline.
 */
final class DashboardCheck {

    private static final ObjectMapper JSON = new ObjectMapper();

    private DashboardCheck() {
    }

    static void assertEveryPanelHasData(Path prometheus, List<ServiceProcess> services, Path scratch)
            throws Exception {
        Path root = DeployFiles.root();
        List<Integer> ports = services.stream().map(ServiceProcess::managementPort).toList();
        try (PrometheusServer server = PrometheusServer.start(prometheus, scratch, ports,
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
                            // The dashboards' variables at "All", as Grafana sends them.
                            String expr = target.path("expr").asText().replace("$job", ".*")
                                    .replace("$namespace", ".*");
                            if (server.query(expr).path("result").isEmpty()) {
                                empty.add(file.getFileName() + " / " + panel.path("title").asText() + ": "
                                        + target.path("expr").asText());
                            }
                        }
                    }
                }
            }
            assertThat(queried).isGreaterThan(30);
            assertThat(empty).as("dashboard expressions with no data").isEmpty();
            assertThat(server.ruleHealth()).hasSize(alertCount(root.resolve("deploy/prometheus/alerts.yml"))).allSatisfy((name, health) ->
                    assertThat(health).as(name).isEqualTo("ok"));
            assertThat(server.query("ALERTS{alertstate=\"firing\"}").path("result"))
                    .as("alerts firing on a healthy pipeline").isEmpty();
        }
    }

    /** Every alert the rules file defines, so a new alert is checked without editing this test. */
    private static int alertCount(Path rules) throws Exception {
        try (Stream<String> lines = Files.lines(rules)) {
            return (int) lines.filter(line -> line.strip().startsWith("- alert:")).count();
        }
    }
}
