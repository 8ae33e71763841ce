package io.tidemark.cli.deploy;

import static io.tidemark.cli.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The alert rules pass promtool's unit tests and each has a runbook; the dashboards are well formed. */
class AlertsAndDashboardsTest {

    private static final String ALERTS = "deploy/prometheus/alerts.yml";

    private static List<String> alertNames() {
        List<Map<String, Object>> groups = at(DeployFiles.yamlMap(DeployFiles.read(ALERTS)), "groups");
        List<String> names = new ArrayList<>();
        for (Map<String, Object> group : groups) {
            List<Map<String, Object>> rules = at(group, "rules");
            rules.forEach(r -> names.add(r.get("alert").toString()));
        }
        return names;
    }

    @Test
    void shouldCoverEveryConditionTheOperatorsWatchWithARunbookEach() {
        assertThat(alertNames()).containsExactlyInAnyOrder("TidemarkServiceNotReady", "TidemarkConsumerLagGrowing",
                "TidemarkPopulatorBehindFiler", "TidemarkPopulatorNoLeader", "TidemarkTimersOverdue",
                "TidemarkDeadLetterGrowing", "TidemarkWalkOverdue", "TidemarkLifecycleDeleteErrors",
                "TidemarkLifecycleDeleteStuck", "TidemarkTasksLost", "TidemarkWalkFailed", "TidemarkMetaLogGap",
                "TidemarkClockSkew", "TidemarkControlsUnknown", "TidemarkPopulatorEventsSkipped",
                "TidemarkReplayTimersMovedAside", "TidemarkDeletesLate", "TidemarkDeleteBeyondMaxLateness", "TidemarkComponentAbsent",
                "TidemarkPopulatorEventsParked", "TidemarkInvalidLifecycleConfigurations", "TidemarkLayoutAnomalies",
                "TidemarkTasksUnreadable", "TidemarkConductorPassNotRun", "TidemarkConductorSilent");
        String operations = DeployFiles.read("docs/operations.md");
        for (String alert : alertNames()) {
            assertThat(operations).as("a runbook section for " + alert).contains("### " + alert);
        }
    }

    @Test
    void shouldPassPromtoolsUnitTestsOfEveryAlert() {
        Optional<Path> promtool = DeployFiles.tool("promtool");
        assumeTrue(promtool.isPresent(),
                "promtool is not installed (.ci/run installs Debian's prometheus package when apt is there)");
        Path dir = DeployFiles.root().resolve("deploy/prometheus");
        DeployFiles.Run check = DeployFiles.run(dir, promtool.get().toString(), "check", "rules", "alerts.yml");
        assertThat(check.exitCode()).as(check.output()).isZero();
        DeployFiles.Run test = DeployFiles.run(dir, promtool.get().toString(), "test", "rules", "alerts-test.yml");
        assertThat(test.exitCode()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS");
        String tests = DeployFiles.read("deploy/prometheus/alerts-test.yml");
        for (String alert : alertNames()) {
            assertThat(tests).as("a firing test for " + alert).contains("alertname: " + alert + "\n");
        }
    }

    @Test
    void shouldProvisionDashboardsWhosePanelsAllQueryTheProvisionedPrometheus() throws Exception {
        ObjectMapper json = new ObjectMapper();
        List<Path> dashboards;
        try (Stream<Path> files = Files.list(DeployFiles.root().resolve("deploy/grafana/dashboards"))) {
            dashboards = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertThat(dashboards).extracting(p -> p.getFileName().toString())
                .containsExactly("tidemark-kafka-clients.json", "tidemark-overview.json", "tidemark-services.json");
        String datasource = DeployFiles.read("deploy/grafana/provisioning/datasources/prometheus.yml");
        assertThat(datasource).contains("uid: prometheus").contains("url: http://prometheus:9090");
        for (Path file : dashboards) {
            JsonNode dashboard = json.readTree(file.toFile());
            assertThat(dashboard.path("uid").asText()).as(file.toString()).isNotEmpty();
            assertThat(dashboard.path("panels").size()).as(file.toString()).isGreaterThan(0);
            for (JsonNode panel : dashboard.path("panels")) {
                assertThat(panel.path("datasource").path("uid").asText()).isEqualTo("prometheus");
                assertThat(panel.path("targets").size()).as(panel.path("title").asText()).isGreaterThan(0);
                panel.path("targets").forEach(t -> assertThat(t.path("expr").asText())
                        .as(panel.path("title").asText()).isNotBlank());
            }
        }
    }
}
