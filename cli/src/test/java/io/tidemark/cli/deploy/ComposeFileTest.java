package io.tidemark.cli.deploy;

import static io.tidemark.cli.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tidemark.config.ConfigLoader;
import io.tidemark.config.TidemarkConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** docker-compose.yml holds what the CLI and the settings registry accept, and converges by its conditions. */
class ComposeFileTest {

    private static final List<String> LONG_RUNNING = List.of("populator-1", "populator-2", "replay-streams",
            "object-processor", "bucket-processor", "conductor");

    private final Map<String, Object> compose = DeployFiles.yamlMap(DeployFiles.read("docker-compose.yml"));
    private final Map<String, Map<String, Object>> services = at(compose, "services");

    private Map<String, Map<String, Object>> tidemarkServices() {
        return services.entrySet().stream()
                .filter(e -> String.valueOf(e.getValue().get("image")).contains("TIDEMARK_IMAGE"))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue, (a, b) -> a, LinkedHashMap::new));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, String> environment(Map<String, Object> service) {
        Map<String, String> env = new LinkedHashMap<>();
        ((Map<String, Object>) service.getOrDefault("environment", Map.of())).forEach((k, v) -> env.put(k,
                String.valueOf(v)));
        return env;
    }

    /** ${NAME:-default} as compose resolves it with NAME unset; ${NAME:?error}, which must be set, as set. */
    private static String withDefaults(String value) {
        return value.replaceAll("\\$\\{[A-Z_]+:-([^}]*)}", "$1").replaceAll("\\$\\{[A-Z_]+:\\?[^}]*}",
                "tidemark:set-in-the-environment");
    }

    /** A value compose takes from a variable that must be set: ${NAME:?error}, no default. */
    private static final Pattern REQUIRED = Pattern.compile("\\$\\{([A-Z_]+):\\?([^}]+)}");

    /** The variables docker-compose.yml requires, with values, as a user's .env file holds them. */
    static final Map<String, String> REQUIRED_VARIABLES = Map.of("GRAFANA_ADMIN_PASSWORD", "a-password",
            "TIDEMARK_ZOOKEEPER_AUTH_DIGEST", "tidemark:a-password");

    @Test
    void shouldRunEveryServiceOfTheImageWithACommandTheImageHas() {
        assertThat(tidemarkServices()).containsKeys(LONG_RUNNING.toArray(String[]::new)).containsKey("topics");
        tidemarkServices().forEach((name, service) -> {
            List<String> command = at(service, "command");
            assertThatCode(() -> DeployFiles.parseImageCommand(command)).as(name + ": " + command)
                    .doesNotThrowAnyException();
        });
        assertThat(services.values().stream().filter(s -> List.of("populator").equals(s.get("command")))).hasSize(2);
    }

    @Test
    void shouldSetOnlySettingsTheRegistryKnowsWithValuesItAccepts() {
        tidemarkServices().forEach((name, service) -> {
            Map<String, String> env = environment(service);
            assertThat(env.keySet()).as(name).allSatisfy(variable -> assertThat(DeployFiles.knownVariable(variable))
                    .as(name + ": " + variable + " is no setting").isTrue());
            Map<String, String> resolved = new LinkedHashMap<>();
            env.forEach((k, v) -> resolved.put(k, withDefaults(v)));
            Map<String, String> values = ConfigLoader.gather(TidemarkConfig.definition(), null, resolved, Map.of());
            assertThatCode(() -> new TidemarkConfig(values)).as(name).doesNotThrowAnyException();
            TidemarkConfig config = new TidemarkConfig(values);
            assertThat(config.getString(TidemarkConfig.FILER_ADDRESS)).as(name).isEqualTo("seaweedfs-filer:18888");
            assertThat(config.getString(TidemarkConfig.S3_GRPC_ADDRESS)).as(name).isEqualTo("seaweedfs-s3:18333");
            assertThat(config.getInt(TidemarkConfig.MANAGEMENT_PORT)).as(name).isEqualTo(8080);
        });
    }

    @Test
    void shouldRunOnRealDaysAndLeaveShortDaysToTheDemoOverrideInTestMode() {
        tidemarkServices().forEach((name, service) -> {
            Map<String, String> env = environment(service);
            assertThat(env).as(name + ": a real SeaweedFS runs on real days").doesNotContainKeys(
                    "TIDEMARK_LIFECYCLE_DAY_SECONDS", "TIDEMARK_LIFECYCLE_TEST_MODE");
            TidemarkConfig config = new TidemarkConfig(ConfigLoader.gather(TidemarkConfig.definition(), null,
                    resolved(env), Map.of()));
            assertThat(config.getLong(TidemarkConfig.LIFECYCLE_DAY_SECONDS)).as(name).isEqualTo(86_400);
            assertThat(config.getBoolean("lifecycle.test.mode")).as(name).isFalse();
        });

        String demoText = DeployFiles.read("docker-compose.demo.yml");
        assertThat(demoText).contains("NOT FOR REAL DATA", "lifecycle.test.mode");
        Map<String, Map<String, Object>> demo = at(DeployFiles.yamlMap(demoText), "services");
        assertThat(demo.keySet()).as("every Tidemark service of docker-compose.yml, and nothing else")
                .containsExactlyInAnyOrderElementsOf(tidemarkServices().keySet());
        demo.forEach((name, override) -> {
            // Compose merges an override's environment into the service's.
            Map<String, String> env = new LinkedHashMap<>(environment(tidemarkServices().get(name)));
            env.putAll(environment(override));
            TidemarkConfig config = new TidemarkConfig(ConfigLoader.gather(TidemarkConfig.definition(), null,
                    resolved(env), Map.of()));
            assertThat(config.getLong(TidemarkConfig.LIFECYCLE_DAY_SECONDS)).as(name).isEqualTo(60);
            assertThat(config.getBoolean("lifecycle.test.mode")).as(name).isTrue();
        });
    }

    private static Map<String, String> resolved(Map<String, String> env) {
        Map<String, String> resolved = new LinkedHashMap<>();
        env.forEach((k, v) -> resolved.put(k, withDefaults(v)));
        return resolved;
    }

    @Test
    void shouldProbeAndScrapeEachLongRunningServiceOnItsManagementPort() {
        String prometheus = DeployFiles.read("deploy/prometheus/prometheus.yml");
        for (String name : LONG_RUNNING) {
            List<String> test = at(services.get(name), "healthcheck", "test");
            assertThat(test).as(name).containsExactly("CMD", "curl", "-fsS", "http://localhost:8080/readyz");
            assertThat(prometheus).as("scraped: " + name).contains(name + ":8080");
        }
        List<String> volumes = at(services.get("prometheus"), "volumes");
        assertThat(volumes).contains("./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro");
        assertThat(DeployFiles.root().resolve("deploy/grafana/dashboards")).isDirectory();
    }

    @Test
    void shouldStartEachServiceOnlyOnceWhatItNeedsIsUp() {
        services.forEach((name, service) -> {
            Map<String, Map<String, String>> dependsOn = at(service, "depends_on");
            if (dependsOn == null) {
                return;
            }
            dependsOn.forEach((dependency, condition) -> {
                assertThat(services).as(name + " depends on " + dependency).containsKey(dependency);
                String wanted = condition.get("condition");
                if (wanted.equals("service_healthy")) {
                    assertThat(at(services.get(dependency), "healthcheck", "test") != null)
                            .as(dependency + " has a health check for " + name).isTrue();
                } else {
                    assertThat(wanted).as(name + " on " + dependency).isEqualTo("service_completed_successfully");
                }
            });
        });
        for (String name : LONG_RUNNING) {
            assertThat(at(services.get(name), "depends_on", "topics", "condition").toString())
                    .isEqualTo("service_completed_successfully");
        }
        assertThat(at(services.get("topics"), "depends_on", "kafka", "condition").toString())
                .isEqualTo("service_healthy");
        assertThat(at(services.get("topics"), "depends_on", "zookeeper", "condition").toString())
                .isEqualTo("service_healthy");
    }

    /**
     * Issue 44: compose published Kafka, the filer and Grafana on every interface of the host, unauthenticated or as
     * admin/admin. Only what a user needs — the S3 API, Prometheus, Grafana — is published, and on loopback only.
     */
    @Test
    void shouldPublishOnlyWhatAUserNeedsAndOnlyOnLoopback() {
        Map<String, List<String>> published = new LinkedHashMap<>();
        services.forEach((name, service) -> {
            List<Object> ports = at(service, "ports");
            if (ports != null) {
                published.put(name, ports.stream().map(String::valueOf).toList());
            }
        });
        assertThat(published.keySet()).containsExactlyInAnyOrder("seaweedfs-s3", "prometheus", "grafana");
        published.forEach((name, ports) -> assertThat(ports).as(name).allSatisfy(port -> assertThat(port)
                .as(name + " publishes " + port + " on loopback only").matches("127\\.0\\.0\\.1:\\d+:\\d+")));
        assertThat(published.get("seaweedfs-s3")).containsExactly("127.0.0.1:8333:8333");
        String header = DeployFiles.read("docker-compose.yml").lines().takeWhile(l -> l.startsWith("#"))
                .collect(Collectors.joining("\n"));
        assertThat(header).contains("127.0.0.1", "8333", "3000", "9090");
        assertThat(DeployFiles.read("docker-compose.demo.yml")).doesNotContain("ports");
    }

    /**
     * Issue 44: Grafana was admin/admin and ZooKeeper's nodes world-writable. Grafana's password and the ZooKeeper
     * digest every Tidemark service authenticates with come from the environment (a .env file), with no default:
     * compose refuses to start without them, naming the variable, and the header says so.
     */
    @Test
    void shouldTakeGrafanasPasswordAndTheZooKeeperDigestFromTheEnvironment() {
        String password = environment(services.get("grafana")).get("GF_SECURITY_ADMIN_PASSWORD");
        Matcher grafana = REQUIRED.matcher(String.valueOf(password));
        assertThat(grafana.matches()).as("Grafana's password is no literal and has no default: " + password).isTrue();
        assertThat(grafana.group(1)).isEqualTo("GRAFANA_ADMIN_PASSWORD");

        tidemarkServices().forEach((name, service) -> {
            String digest = environment(service).get("TIDEMARK_ZOOKEEPER_AUTH_DIGEST");
            Matcher m = REQUIRED.matcher(String.valueOf(digest));
            assertThat(m.matches()).as(name + ": the ZooKeeper digest, required: " + digest).isTrue();
            assertThat(m.group(1)).isEqualTo("TIDEMARK_ZOOKEEPER_AUTH_DIGEST");
        });

        String header = DeployFiles.read("docker-compose.yml").lines().takeWhile(l -> l.startsWith("#"))
                .collect(Collectors.joining("\n"));
        assertThat(header).contains(".env", "GRAFANA_ADMIN_PASSWORD", "TIDEMARK_ZOOKEEPER_AUTH_DIGEST")
                .doesNotContain("admin/admin");
        assertThat(DeployFiles.read("docs/deploy.md")).contains("GRAFANA_ADMIN_PASSWORD",
                "TIDEMARK_ZOOKEEPER_AUTH_DIGEST", "127.0.0.1").doesNotContain("admin/admin");
    }

    @Test
    void shouldBeAValidComposeFileForDockerCompose(@TempDir Path dir) throws Exception {
        Optional<Path> tool = DeployFiles.tool("docker-compose");
        assumeTrue(tool.isPresent(), "docker-compose is not installed (.ci/run installs Debian's when apt is there)");
        Path env = dir.resolve("env");
        Files.writeString(env, REQUIRED_VARIABLES.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue() + "\n")
                .collect(Collectors.joining()));
        DeployFiles.Run run = DeployFiles.run(DeployFiles.root(), tool.get().toString(), "--env-file", env.toString(),
                "-f", "docker-compose.yml", "config", "-q");
        assertThat(run.exitCode()).as(run.output()).isZero();
        DeployFiles.Run demo = DeployFiles.run(DeployFiles.root(), tool.get().toString(), "--env-file", env.toString(),
                "-f", "docker-compose.yml", "-f", "docker-compose.demo.yml", "config", "-q");
        assertThat(demo.exitCode()).as(demo.output()).isZero();

        // Without them, compose refuses, naming what to set.
        Path empty = Files.writeString(dir.resolve("empty"), "");
        DeployFiles.Run unset = DeployFiles.run(DeployFiles.root(), Set.copyOf(REQUIRED_VARIABLES.keySet()),
                tool.get().toString(), "--env-file", empty.toString(), "-f", "docker-compose.yml", "config", "-q");
        assertThat(unset.exitCode()).as(unset.output()).isNotZero();
        assertThat(unset.output()).containsAnyOf("GRAFANA_ADMIN_PASSWORD", "TIDEMARK_ZOOKEEPER_AUTH_DIGEST");
    }
}
