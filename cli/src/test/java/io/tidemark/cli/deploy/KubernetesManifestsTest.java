package io.tidemark.cli.deploy;

import static io.tidemark.cli.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.tidemark.config.ConfigLoader;
import io.tidemark.config.TidemarkConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** deploy/k8s renders offline with kustomize into what operators expect, and runs only what the image has. */
class KubernetesManifestsTest {

    private static List<Map<String, Object>> render(String directory) {
        Optional<Path> kubectl = DeployFiles.tool("kubectl");
        assumeTrue(kubectl.isPresent(), "kubectl is not installed: the kustomize rendering cannot be checked here");
        DeployFiles.Run run = DeployFiles.run(DeployFiles.root(), kubectl.get().toString(), "kustomize", directory);
        assertThat(run.exitCode()).as(run.output()).isZero();
        return DeployFiles.yamlDocuments(run.output());
    }

    private static Map<String, Object> find(List<Map<String, Object>> resources, String kind, String name) {
        return resources.stream().filter(r -> kind.equals(r.get("kind")) && name.equals(at(r, "metadata", "name")))
                .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name));
    }

    private static Map<String, Object> container(Map<String, Object> podSpec) {
        List<Map<String, Object>> containers = at(podSpec, "containers");
        return containers.get(0);
    }

    @Test
    void shouldRunTheServicesAsOperatorsExpect() {
        List<Map<String, Object>> base = render("deploy/k8s");
        assertThat(((Number) at(find(base, "Deployment", "populator"), "spec", "replicas")).intValue()).isEqualTo(2);
        for (String name : List.of("populator", "object-processor", "bucket-processor")) {
            assertLongRunning(name, at(find(base, "Deployment", name), "spec", "template", "spec"));
            assertThat(find(base, "PodDisruptionBudget", name)).isNotNull();
        }

        Map<String, Object> replay = find(base, "StatefulSet", "replay-streams");
        assertLongRunning("replay-streams", at(replay, "spec", "template", "spec"));
        assertThat((List<?>) at(replay, "spec", "volumeClaimTemplates")).hasSize(1);
        assertThat(find(base, "PodDisruptionBudget", "replay-streams")).isNotNull();
        List<Map<String, Object>> env = at(container(at(replay, "spec", "template", "spec")), "env");
        assertThat(env).anySatisfy(e -> {
            assertThat(e.get("name")).isEqualTo("TIDEMARK_KAFKA_STREAMS_APPLICATION_SERVER");
            assertThat(e.get("value").toString()).startsWith("$(POD_NAME).replay-streams.");
        });
        assertThat(at(find(base, "Service", "replay-streams"), "spec", "clusterIP").toString()).isEqualTo("None");

        Map<String, Object> cron = find(base, "CronJob", "conductor");
        assertThat(at(cron, "spec", "concurrencyPolicy").toString()).isEqualTo("Forbid");
        Map<String, Object> conductor = container(at(cron, "spec", "jobTemplate", "spec", "template", "spec"));
        assertThat((List<String>) at(conductor, "args")).containsExactly("conductor", "--once", "--exit-zero-on-skip");
        assertThatCode(() -> DeployFiles.parseImageCommand(at(conductor, "args"))).doesNotThrowAnyException();

        Map<String, Object> topics = container(at(find(base, "Job", "tidemark-topics"), "spec", "template", "spec"));
        assertThatCode(() -> DeployFiles.parseImageCommand(at(topics, "args"))).doesNotThrowAnyException();

        assertThat(find(base, "PodMonitor", "tidemark")).isNotNull();
        assertThat(find(base, "Service", "tidemark-metrics")).isNotNull();
        Map<String, String> settings = at(base.stream().filter(r -> "ConfigMap".equals(r.get("kind"))).findFirst()
                .orElseThrow(), "data");
        assertThat(settings.keySet()).allSatisfy(v -> assertThat(DeployFiles.knownVariable(v)).as(v).isTrue());
    }

    @SuppressWarnings("unchecked")
    private static void assertLongRunning(String name, Map<String, Object> podSpec) {
        Map<String, Object> c = container(podSpec);
        assertThatCode(() -> DeployFiles.parseImageCommand(at(c, "args"))).as(name).doesNotThrowAnyException();
        assertThat(((List<String>) at(c, "args")).get(0)).isEqualTo(name);
        assertThat(at(c, "livenessProbe", "httpGet", "path").toString()).as(name).isEqualTo("/healthz");
        assertThat(at(c, "readinessProbe", "httpGet", "path").toString()).as(name).isEqualTo("/readyz");
        assertThat((Map<String, Object>) at(c, "resources", "requests")).as(name).containsKeys("cpu", "memory");
        assertThat((Map<String, Object>) at(c, "resources", "limits")).as(name).containsKeys("cpu", "memory");
        List<Map<String, Object>> ports = at(c, "ports");
        assertThat(ports).as(name).anySatisfy(p -> {
            assertThat(p.get("name")).isEqualTo("management");
            assertThat(p.get("containerPort")).isEqualTo(8080);
        });
        // Inside Kubernetes' 30 s grace period the service's own shutdown timeout (25 s) must fit.
        assertThat(((Number) podSpec.get("terminationGracePeriodSeconds")).intValue()).as(name).isGreaterThan(25);
    }

    @Test
    void shouldRunTheBaseOnRealDaysAndDeclareTheLocalOverlayATestCluster() {
        Map<String, String> base = new LinkedHashMap<>();
        DeployFiles.read("deploy/k8s/tidemark.env").lines().filter(l -> l.contains("=") && !l.startsWith("#"))
                .forEach(l -> base.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
        TidemarkConfig real = new TidemarkConfig(ConfigLoader.gather(TidemarkConfig.definition(), null, base,
                Map.of()));
        assertThat(real.getLong(TidemarkConfig.LIFECYCLE_DAY_SECONDS)).isEqualTo(86_400);
        assertThat(real.getBoolean("lifecycle.test.mode")).isFalse();

        Map<String, Object> overlay = DeployFiles.yamlMap(DeployFiles.read(
                "deploy/k8s-overlays/local/kustomization.yaml"));
        List<Map<String, Object>> generators = at(overlay, "configMapGenerator");
        Map<String, String> local = new LinkedHashMap<>(base);
        for (Object literal : (List<?>) generators.get(0).get("literals")) {
            String pair = literal.toString();
            local.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
        }
        TidemarkConfig demo = new TidemarkConfig(ConfigLoader.gather(TidemarkConfig.definition(), null, local,
                Map.of()));
        if (demo.getLong(TidemarkConfig.LIFECYCLE_DAY_SECONDS) != 86_400) {
            assertThat(demo.getBoolean("lifecycle.test.mode")).as("a shortened day in the local overlay").isTrue();
        }
    }

    @Test
    void shouldCarryTheSameAlertRulesAsPrometheusLoads() {
        Map<String, Object> rule = DeployFiles.yamlMap(DeployFiles.read("deploy/k8s/prometheusrule.yaml"));
        Map<String, Object> shared = DeployFiles.yamlMap(DeployFiles.read("deploy/prometheus/alerts.yml"));
        assertThat(rule.get("kind")).isEqualTo("PrometheusRule");
        assertThat((Object) at(rule, "spec", "groups")).isEqualTo(shared.get("groups"));
    }

    @Test
    void shouldRenderTheLocalOverlayWithItsDependenciesAndTheLocalImage() {
        List<Map<String, Object>> local = render("deploy/k8s-overlays/local");
        assertThat(local).allSatisfy(r -> {
            if (!"Namespace".equals(r.get("kind"))) {
                assertThat(at(r, "metadata", "namespace").toString()).isEqualTo("tidemark");
            }
        });
        for (String dependency : List.of("kafka", "zookeeper", "seaweedfs")) {
            assertThat(find(local, "Deployment", dependency)).isNotNull();
        }
        Map<String, Object> populator = container(at(find(local, "Deployment", "populator"), "spec", "template",
                "spec"));
        assertThat(populator.get("image")).isEqualTo("tidemark:dev");
        assertThat(populator.get("imagePullPolicy")).isEqualTo("Never");
        assertThat(container(at(find(local, "Deployment", "kafka"), "spec", "template", "spec")))
                .doesNotContainKey("imagePullPolicy");
        assertThat(local).noneMatch(r -> "PodMonitor".equals(r.get("kind")) || "PrometheusRule".equals(r.get("kind")));
    }
}
