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
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
                "TidemarkReplayTimersMovedAside", "TidemarkDeletesLate", "TidemarkDeleteBeyondMaxLateness",
                "TidemarkComponentAbsent", "TidemarkPopulatorEventsParked", "TidemarkInvalidLifecycleConfigurations",
                "TidemarkLayoutAnomalies", "TidemarkTasksUnreadable", "TidemarkConductorPassNotRun",
                "TidemarkConductorSilent", "TidemarkConductorNeverRecorded", "TidemarkDeletesOverdue");
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
    void shouldProvisionDashboardsWhosePanelsAllQueryTheChosenDataSourceAndJob() throws Exception {
        String datasource = DeployFiles.read("deploy/grafana/provisioning/datasources/prometheus.yml");
        assertThat(datasource).contains("uid: prometheus").contains("url: http://prometheus:9090");
        for (Path file : dashboards()) {
            JsonNode dashboard = JSON.readTree(file.toFile());
            assertThat(dashboard.path("uid").asText()).as(file.toString()).isNotEmpty();
            List<String> variables = new ArrayList<>();
            dashboard.path("templating").path("list").forEach(v -> variables.add(v.path("name").asText()));
            assertThat(variables).as(file + ": its variables").containsExactly("datasource", "job", "namespace");
            assertThat(dashboard.path("panels").size()).as(file.toString()).isGreaterThan(0);
            for (JsonNode panel : dashboard.path("panels")) {
                String title = file.getFileName() + " / " + panel.path("title").asText();
                assertThat(panel.path("datasource").path("uid").asText()).as(title).isEqualTo("${datasource}");
                assertThat(panel.path("targets").size()).as(title).isGreaterThan(0);
                for (JsonNode target : panel.path("targets")) {
                    String expr = target.path("expr").asText();
                    assertThat(expr).as(title).isNotBlank();
                    assertThat(target.path("datasource").path("uid").asText()).as(title).isEqualTo("${datasource}");
                    // Every Tidemark series is scoped by the job and namespace chosen; ALERTS is Prometheus's own.
                    Matcher selector = SELECTED.matcher(expr);
                    while (selector.find()) {
                        assertThat(selector.group(2)).as(title + ": " + selector.group(1))
                                .contains("job=~\"$job\"", "namespace=~\"$namespace\"");
                    }
                    // A counter is read through rate() or increase(), never plotted as the ever-growing total.
                    Matcher counter = COUNTER.matcher(expr);
                    while (counter.find()) {
                        assertThat(expr.substring(0, counter.start())).as(title + ": " + counter.group(1))
                                .matches("(?s).*\\b(rate|increase)\\(\\s*$");
                    }
                }
            }
        }
    }

    /**
     * Each series a panel or an alert reads is one the services export, and each label it groups or filters a Tidemark
     * series by is one they set (or Prometheus's own): a renamed metric or a misspelt label shows here, not as an
     * empty panel or an alert that can never fire.
     */
    @Test
    void shouldQueryOnlyMetricsAndLabelsTheServicesExport() throws Exception {
        Set<String> declared = new TreeSet<>();
        Set<String> literals = new TreeSet<>();
        try (Stream<Path> files = Files.walk(DeployFiles.root())) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")
                    && f.toString().contains("/src/main/java/")).toList()) {
                String source = Files.readString(file);
                Matcher name = Pattern.compile("\"(tidemark\\.[a-z0-9.]+)\"").matcher(source);
                while (name.find()) {
                    declared.add(normalized(name.group(1).replace('.', '_')));
                }
                Matcher literal = Pattern.compile("\"([a-z_]+)\"").matcher(source);
                while (literal.find()) {
                    literals.add(literal.group(1));
                }
            }
        }
        List<String> queries = new ArrayList<>();
        for (Path file : dashboards()) {
            JSON.readTree(file.toFile()).path("panels").forEach(p -> p.path("targets")
                    .forEach(t -> queries.add(t.path("expr").asText())));
        }
        for (Map<String, Object> group : DeployFiles.<List<Map<String, Object>>>at(
                DeployFiles.yamlMap(DeployFiles.read(ALERTS)), "groups")) {
            DeployFiles.<List<Map<String, Object>>>at(group, "rules")
                    .forEach(r -> queries.add(r.get("expr").toString()));
        }
        Set<String> prometheusOwn = Set.of("job", "namespace", "instance", "service", "le", "alertname",
                "alertstate");
        for (String query : queries) {
            Matcher metric = Pattern.compile("\\btidemark_[a-z0-9_]+").matcher(query);
            while (metric.find()) {
                assertThat(declared).as("a metric the services export: " + metric.group() + " in " + query)
                        .contains(normalized(metric.group()));
            }
            if (!query.contains("tidemark_")) {
                continue;
            }
            Matcher labels = LABELS.matcher(query);
            while (labels.find()) {
                String list = labels.group(1) != null ? labels.group(1) : labels.group(2);
                for (String label : list.split(",")) {
                    String l = label.trim().replaceAll("[=!~].*", "").trim();
                    if (!l.isEmpty() && !prometheusOwn.contains(l)) {
                        assertThat(literals).as("a label the services set: " + l + " in " + query).contains(l);
                    }
                }
            }
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A Tidemark series and its selector. */
    private static final Pattern SELECTED = Pattern.compile("\\b(tidemark_[a-z0-9_]+)(\\{[^}]*\\})?");
    /** A counter's series: it ends in _total. */
    private static final Pattern COUNTER = Pattern.compile("\\b((?:tidemark|kafka|jvm)_[a-z0-9_]+_total)\\b");
    /** What {@code by (…)} groups by, or a selector's matchers. */
    private static final Pattern LABELS = Pattern.compile("(?:by|without) \\(([^)]*)\\)|\\{([^}]*)\\}");

    /** A series name as its meter names it: without the histogram, counter and base-unit suffixes. */
    private static String normalized(String series) {
        return series.replaceAll("_(bucket|sum|count|max|total)$", "").replaceAll("_(seconds|events|bytes)$", "");
    }

    private static List<Path> dashboards() throws Exception {
        try (Stream<Path> files = Files.list(DeployFiles.root().resolve("deploy/grafana/dashboards"))) {
            List<Path> dashboards = files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
            assertThat(dashboards).extracting(p -> p.getFileName().toString())
                    .containsExactly("tidemark-kafka-clients.json", "tidemark-overview.json", "tidemark-services.json");
            return dashboards;
        }
    }
}
