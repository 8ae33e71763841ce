package io.tidemark.cli.deploy;

import static io.tidemark.cli.deploy.DeployFiles.at;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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

    /**
     * Issue 44: without a ZooKeeper digest the pause, dry-run and registry nodes are world-writable. Every Tidemark
     * container takes {@code TIDEMARK_ZOOKEEPER_AUTH_DIGEST} from a Secret the kustomization generates; the base's is
     * a placeholder the services refuse (so a forgotten one stops them instead of running with a known password), the
     * local overlay's a digest they accept.
     */
    @Test
    void shouldTakeTheZooKeeperDigestFromASecretInEveryContainer() {
        List<Map<String, Object>> base = render("deploy/k8s");
        Map<String, String> baseDigests = digests(base);
        assertThat(baseDigests.keySet()).contains("populator", "replay-streams", "object-processor",
                "bucket-processor", "conductor", "tidemark-topics");
        assertThat(new java.util.HashSet<>(baseDigests.values())).hasSize(1);
        String placeholder = baseDigests.values().iterator().next();
        assertThatThrownBy(() -> new TidemarkConfig(Map.of("zookeeper.auth.digest", placeholder)))
                .as("the base's digest is a placeholder the services refuse").hasMessageContaining(
                        "zookeeper.auth.digest");
        Map<String, String> settings = at(base.stream().filter(r -> "ConfigMap".equals(r.get("kind"))).findFirst()
                .orElseThrow(), "data");
        assertThat(settings).doesNotContainKey("TIDEMARK_ZOOKEEPER_AUTH_DIGEST");

        Map<String, String> localDigests = digests(render("deploy/k8s-overlays/local"));
        assertThat(localDigests.keySet()).isEqualTo(baseDigests.keySet());
        assertThat(new java.util.HashSet<>(localDigests.values())).hasSize(1);
        String local = localDigests.values().iterator().next();
        assertThatCode(() -> new TidemarkConfig(Map.of("zookeeper.auth.digest", local))).doesNotThrowAnyException();
    }

    /**
     * Per workload running the Tidemark image, the digest its container is given: the value of the Secret key its
     * {@code TIDEMARK_ZOOKEEPER_AUTH_DIGEST} refers to, which must be among the rendered resources.
     */
    @SuppressWarnings("unchecked")
    private static Map<String, String> digests(List<Map<String, Object>> resources) {
        Map<String, String> digests = new LinkedHashMap<>();
        for (Map<String, Object> r : resources) {
            Map<String, Object> podSpec = switch (String.valueOf(r.get("kind"))) {
                case "Deployment", "StatefulSet", "Job" -> at(r, "spec", "template", "spec");
                case "CronJob" -> at(r, "spec", "jobTemplate", "spec", "template", "spec");
                default -> null;
            };
            if (podSpec == null || !String.valueOf(container(podSpec).get("image")).contains("tidemark")) {
                continue;
            }
            String name = at(r, "metadata", "name");
            List<Map<String, Object>> env = at(container(podSpec), "env");
            Map<String, Object> ref = env == null ? null : env.stream()
                    .filter(e -> "TIDEMARK_ZOOKEEPER_AUTH_DIGEST".equals(e.get("name"))).findFirst()
                    .map(e -> (Map<String, Object>) at(e, "valueFrom", "secretKeyRef")).orElse(null);
            assertThat(ref).as(name + ": TIDEMARK_ZOOKEEPER_AUTH_DIGEST from a Secret").isNotNull();
            Map<String, Object> secret = find(resources, "Secret", String.valueOf(ref.get("name")));
            String encoded = at(secret, "data", String.valueOf(ref.get("key")));
            assertThat(encoded).as(name + ": the Secret's key " + ref.get("key")).isNotNull();
            digests.put(name, new String(java.util.Base64.getDecoder().decode(encoded),
                    java.nio.charset.StandardCharsets.UTF_8));
        }
        return digests;
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


    // Issue 44, item 6: Kubernetes that survives production.

    /** The pod spec of a workload, whatever its kind; null for anything else. */
    private static Map<String, Object> podSpecOf(Map<String, Object> resource) {
        return switch (String.valueOf(resource.get("kind"))) {
            case "Deployment", "StatefulSet", "Job" -> at(resource, "spec", "template", "spec");
            case "CronJob" -> at(resource, "spec", "jobTemplate", "spec", "template", "spec");
            default -> null;
        };
    }

    private static Map<String, Object> podTemplateOf(Map<String, Object> resource) {
        return "CronJob".equals(resource.get("kind")) ? at(resource, "spec", "jobTemplate", "spec", "template")
                : at(resource, "spec", "template");
    }

    /** The workloads that run the Tidemark image. */
    private static List<Map<String, Object>> tidemarkWorkloads(List<Map<String, Object>> resources) {
        return resources.stream().filter(r -> podSpecOf(r) != null)
                .filter(r -> String.valueOf(container(podSpecOf(r)).get("image")).contains("tidemark")).toList();
    }

    /** The data of the generated ConfigMap tidemark-config (its name carries kustomize's hash). */
    private static Map<String, String> settingsOf(List<Map<String, Object>> resources) {
        return at(resources.stream().filter(r -> "ConfigMap".equals(r.get("kind"))
                && String.valueOf((Object) at(r, "metadata", "name")).startsWith("tidemark-config")).findFirst()
                .orElseThrow(() -> new AssertionError("no ConfigMap tidemark-config")), "data");
    }

    /** A container's plain env values (those given by value, not from a Secret or a field). */
    private static Map<String, String> plainEnv(Map<String, Object> container) {
        Map<String, String> values = new LinkedHashMap<>();
        List<Map<String, Object>> env = at(container, "env");
        if (env != null) {
            env.stream().filter(e -> e.get("value") != null)
                    .forEach(e -> values.put(e.get("name").toString(), e.get("value").toString()));
        }
        return values;
    }

    /** A Kubernetes memory quantity (2Gi, 512Mi, 1G) in bytes. */
    private static long quantity(String value) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+)([KMGT]i?)?").matcher(value.trim());
        assertThat(m.matches()).as("memory quantity " + value).isTrue();
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "" : m.group(2);
        int power = unit.isEmpty() ? 0 : "KMGT".indexOf(unit.charAt(0)) + 1;
        long base = unit.endsWith("i") ? 1024 : 1000;
        for (int i = 0; i < power; i++) {
            n *= base;
        }
        return n;
    }

    /**
     * Both populators (leader and standby) and each replay-streams pod and its standby must not share a node, or one
     * node's loss stops the pipeline: a hard spread by hostname (tainted and cordoned nodes left out of the count, so
     * a drain or a tainted control-plane node does not block scheduling), and a soft one by zone, which clusters
     * without zone labels ignore.
     */
    @Test
    void shouldSpreadThePopulatorsAndReplayStreamsOverNodesAndZones() {
        List<Map<String, Object>> base = render("deploy/k8s");
        for (Map<String, Object> workload : List.of(find(base, "Deployment", "populator"),
                find(base, "StatefulSet", "replay-streams"))) {
            String name = at(workload, "metadata", "name");
            Map<String, Object> podLabels = at(workload, "spec", "template", "metadata", "labels");
            List<Map<String, Object>> spread = at(workload, "spec", "template", "spec", "topologySpreadConstraints");
            assertThat(spread).as(name + ": topologySpreadConstraints").isNotNull();
            Map<String, Map<String, Object>> byKey = new LinkedHashMap<>();
            spread.forEach(c -> byKey.put(String.valueOf(c.get("topologyKey")), c));
            assertThat(byKey).as(name).containsKeys("kubernetes.io/hostname", "topology.kubernetes.io/zone");
            Map<String, Object> node = byKey.get("kubernetes.io/hostname");
            assertThat(node.get("whenUnsatisfiable")).as(name + " by node").isEqualTo("DoNotSchedule");
            assertThat(node.get("maxSkew")).as(name + " by node").isEqualTo(1);
            assertThat(node.get("nodeTaintsPolicy")).as(name + " by node").isEqualTo("Honor");
            assertThat(byKey.get("topology.kubernetes.io/zone").get("whenUnsatisfiable")).as(name + " by zone")
                    .isEqualTo("ScheduleAnyway");
            for (Map<String, Object> constraint : spread) {
                Map<String, Object> selector = at(constraint, "labelSelector", "matchLabels");
                assertThat(selector).as(name + ": the constraint counts this workload's own pods").isNotEmpty()
                        .containsEntry("app.kubernetes.io/name", podLabels.get("app.kubernetes.io/name"));
                assertThat(podLabels).as(name).containsAllEntriesOf(selector);
            }
        }
    }

    /**
     * The alert rules ask for {@code up{job="tidemark"}}; the Prometheus Operator names a PodMonitor's job
     * {@code <namespace>/<name>} unless {@code jobLabel} names a pod label whose value it takes instead.
     */
    @Test
    void shouldNameThePodMonitorsJobAsTheAlertRulesDo() {
        java.util.Set<String> jobs = new java.util.TreeSet<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("job=\"([^\"]+)\"")
                .matcher(DeployFiles.read("deploy/prometheus/alerts.yml"));
        while (m.find()) {
            jobs.add(m.group(1));
        }
        assertThat(jobs).as("the jobs the alert rules name").containsExactly("tidemark");

        List<Map<String, Object>> base = render("deploy/k8s");
        Map<String, Object> monitor = find(base, "PodMonitor", "tidemark");
        String jobLabel = at(monitor, "spec", "jobLabel");
        assertThat(jobLabel).as("spec.jobLabel: without it the job would be <namespace>/tidemark").isNotBlank();
        List<Map<String, Object>> expressions = at(monitor, "spec", "selector", "matchExpressions");
        List<?> components = (List<?>) expressions.stream()
                .filter(e -> "app.kubernetes.io/component".equals(e.get("key"))).findFirst().orElseThrow()
                .get("values");
        List<Map<String, Object>> scraped = base.stream().filter(r -> podSpecOf(r) != null)
                .filter(r -> components.contains(at(podTemplateOf(r), "metadata", "labels",
                        "app.kubernetes.io/component"))).toList();
        assertThat(scraped).hasSize(components.size());
        for (Map<String, Object> workload : scraped) {
            assertThat((Object) at(podTemplateOf(workload), "metadata", "labels", jobLabel))
                    .as(at(workload, "metadata", "name") + ": the pod label the job is named from")
                    .isEqualTo("tidemark");
        }
    }

    /**
     * Every address the local overlay's settings name is a Service the overlay runs, on a port that reaches a
     * container port of the pods it selects (the base's SeaweedFS master, seaweedfs-master.seaweedfs.svc, is not
     * there).
     */
    @Test
    void shouldPointTheLocalOverlayOnlyAtServicesItRuns() {
        List<Map<String, Object>> local = render("deploy/k8s-overlays/local");
        Map<String, String> settings = settingsOf(local);
        List<String> addressKeys = settings.keySet().stream().filter(k -> k.endsWith("_ADDRESS")
                || k.endsWith("_ADDRESSES") || k.equals("TIDEMARK_KAFKA_BOOTSTRAP_SERVERS")
                || k.equals("TIDEMARK_ZOOKEEPER_CONNECT")).toList();
        assertThat(addressKeys).contains("TIDEMARK_FILER_ADDRESS", "TIDEMARK_S3_GRPC_ADDRESS",
                "TIDEMARK_KAFKA_BOOTSTRAP_SERVERS", "TIDEMARK_ZOOKEEPER_CONNECT");
        for (String key : addressKeys) {
            for (String address : settings.get(key).split(",")) {
                if (address.isBlank()) {
                    continue;
                }
                String host = address.substring(0, address.lastIndexOf(':')).trim();
                int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1).trim());
                String service = host.contains(".") ? host.substring(0, host.indexOf('.')) : host;
                if (host.contains(".")) {
                    assertThat(host.substring(host.indexOf('.') + 1)).as(key + ": the overlay's namespace")
                            .matches("tidemark(\\.svc(\\.cluster\\.local)?)?");
                }
                Map<String, Object> svc = local.stream().filter(r -> "Service".equals(r.get("kind"))
                        && service.equals(at(r, "metadata", "name"))).findFirst()
                        .orElseThrow(() -> new AssertionError(key + "=" + settings.get(key) + ": no Service "
                                + service + " in the local overlay"));
                List<Map<String, Object>> ports = at(svc, "spec", "ports");
                Map<String, Object> servicePort = ports.stream()
                        .filter(p -> ((Number) p.get("port")).intValue() == port).findFirst()
                        .orElseThrow(() -> new AssertionError(key + ": Service " + service + " has no port " + port));
                Object target = servicePort.getOrDefault("targetPort", port);
                Map<String, Object> selector = at(svc, "spec", "selector");
                List<Map<String, Object>> pods = local.stream().filter(r -> podSpecOf(r) != null)
                        .filter(r -> {
                            Map<String, Object> labels = at(podTemplateOf(r), "metadata", "labels");
                            return labels != null && labels.entrySet().containsAll(selector.entrySet());
                        }).toList();
                assertThat(pods).as(key + ": pods behind Service " + service).isNotEmpty();
                for (Map<String, Object> pod : pods) {
                    List<Map<String, Object>> containerPorts = at(container(podSpecOf(pod)), "ports");
                    assertThat(containerPorts).as(key + ": " + service + " serves " + target).anySatisfy(p ->
                            assertThat(target instanceof Number n ? p.get("containerPort").equals(n.intValue())
                                    : target.equals(p.get("name"))).isTrue());
                }
            }
        }
    }

    /**
     * Replay-streams' RocksDB stores share one bounded cache (replay-streams.rocksdb.memory.bytes, set beside the
     * pod's limit), and the heap's share of the limit leaves room for it, for what RocksDB keeps past it and for the
     * JVM's own memory (docs/replay-streams.md, "Memory").
     */
    @Test
    void shouldBoundReplayStreamsRocksDbAndLeaveItRoomBesideTheHeap() {
        for (String directory : List.of("deploy/k8s", "deploy/k8s-overlays/local")) {
            List<Map<String, Object>> rendered = render(directory);
            Map<String, Object> replay = container(at(find(rendered, "StatefulSet", "replay-streams"), "spec",
                    "template", "spec"));
            Map<String, String> env = plainEnv(replay);
            assertThat(env).as(directory + ": replay-streams' own bound")
                    .containsKey("TIDEMARK_REPLAY_STREAMS_ROCKSDB_MEMORY_BYTES");
            Map<String, String> variables = new LinkedHashMap<>(settingsOf(rendered));
            env.forEach((k, v) -> {
                if (k.startsWith(TidemarkConfig.ENV_PREFIX)) {
                    variables.put(k, v);
                }
            });
            TidemarkConfig config = new TidemarkConfig(ConfigLoader.gather(TidemarkConfig.definition(), null,
                    variables, Map.of()));
            long rocksdb = config.getLong("replay-streams.rocksdb.memory.bytes");
            assertThat(rocksdb).as(directory).isPositive();

            long limit = quantity(at(replay, "resources", "limits", "memory").toString());
            java.util.regex.Matcher heap = java.util.regex.Pattern.compile("-XX:MaxRAMPercentage=(\\d+(\\.\\d+)?)")
                    .matcher(env.getOrDefault("TIDEMARK_JAVA_OPTS", ""));
            assertThat(heap.find()).as(directory + ": replay-streams' heap share, TIDEMARK_JAVA_OPTS "
                    + "-XX:MaxRAMPercentage (the image's 75 % leaves RocksDB no room)").isTrue();
            long heapBytes = (long) (limit * Double.parseDouble(heap.group(1)) / 100);
            long rest = limit - heapBytes - rocksdb;
            assertThat(rest).as(directory + ": left of the " + (limit >> 20) + " MiB limit for the JVM's own memory "
                    + "(metaspace, code, threads, GC, buffers) and RocksDB's overshoot, with a heap of "
                    + (heapBytes >> 20) + " MiB and RocksDB " + (rocksdb >> 20) + " MiB")
                    .isGreaterThanOrEqualTo(LEFT_BESIDE_HEAP_AND_BOUND);
        }
    }

    /**
     * What a pod's limit must keep beside the heap and the RocksDB bound: with ten million timers the JVM's own memory
     * measured ~300 MiB and RocksDB's resident memory went ~310 MiB past a 512 MiB bound (docs/replay-streams.md).
     */
    private static final long LEFT_BESIDE_HEAP_AND_BOUND = 768L * 1024 * 1024;

    /**
     * deploy/k8s-overlays/secure: Kafka over SASL_SSL and the filer's and gateway's gRPC over mutual TLS, every secret
     * from Secrets the operator creates (none is in the repository): the JAAS line as a variable from a Secret, the CA
     * and the client certificate as files from Secret volumes, mounted wherever the settings point.
     */
    @Test
    void shouldRenderTheSecureExampleWithItsSecretsMountedInEveryContainer() {
        List<Map<String, Object>> secure = render("deploy/k8s-overlays/secure");
        Map<String, String> settings = settingsOf(secure);
        assertThat(settings).containsEntry("TIDEMARK_KAFKA_SECURITY_PROTOCOL", "SASL_SSL")
                .containsEntry("TIDEMARK_GRPC_TLS_ENABLED", "true")
                .containsKeys("TIDEMARK_KAFKA_SASL_MECHANISM", "TIDEMARK_KAFKA_SSL_TRUSTSTORE_LOCATION",
                        "TIDEMARK_GRPC_TLS_CA_FILE", "TIDEMARK_GRPC_TLS_CERT_FILE", "TIDEMARK_GRPC_TLS_KEY_FILE")
                .doesNotContainKey("TIDEMARK_KAFKA_SASL_JAAS_CONFIG");
        assertThat(settings.keySet()).allSatisfy(v -> assertThat(DeployFiles.knownVariable(v)).as(v).isTrue());
        TidemarkConfig config = new TidemarkConfig(ConfigLoader.gather(TidemarkConfig.definition(), null, settings,
                Map.of()));
        assertThat(config.grpcTls().mutual()).as("mutual TLS to the filer and the gateway").isTrue();
        assertThat(config.consumerProperties()).containsEntry("security.protocol", "SASL_SSL");
        List<String> kafkaFiles = settings.entrySet().stream().filter(e -> e.getKey().startsWith("TIDEMARK_KAFKA_")
                && e.getKey().endsWith("_LOCATION")).map(Map.Entry::getValue).toList();
        List<String> grpcFiles = settings.entrySet().stream().filter(e -> e.getKey().startsWith("TIDEMARK_GRPC_TLS_")
                && e.getKey().endsWith("_FILE")).map(Map.Entry::getValue).toList();
        // The filer and the gateway are called by these four; the topics job and the conductor need Kafka only.
        List<String> grpcClients = List.of("populator", "replay-streams", "object-processor", "bucket-processor");

        List<Map<String, Object>> workloads = tidemarkWorkloads(secure);
        assertThat(workloads.stream().map(r -> at(r, "metadata", "name").toString()).toList())
                .contains("populator", "replay-streams", "object-processor", "bucket-processor", "conductor",
                        "tidemark-topics");
        java.util.Set<String> secrets = new java.util.TreeSet<>();
        for (Map<String, Object> workload : workloads) {
            String name = at(workload, "metadata", "name");
            Map<String, Object> podSpec = podSpecOf(workload);
            Map<String, Object> c = container(podSpec);
            List<Map<String, Object>> env = at(c, "env");
            assertThat(env).as(name + ": the JAAS line from a Secret").anySatisfy(e -> {
                assertThat(e.get("name")).isEqualTo("TIDEMARK_KAFKA_SASL_JAAS_CONFIG");
                assertThat((Object) at(e, "valueFrom", "secretKeyRef", "name")).isNotNull();
                secrets.add(at(e, "valueFrom", "secretKeyRef", "name"));
            });
            List<Map<String, Object>> mounts = at(c, "volumeMounts");
            List<Map<String, Object>> volumes = at(podSpec, "volumes");
            List<String> files = new java.util.ArrayList<>(kafkaFiles);
            if (grpcClients.contains(name)) {
                files.addAll(grpcFiles);
            }
            for (String file : files) {
                Map<String, Object> mount = mounts.stream()
                        .filter(v -> file.startsWith(v.get("mountPath").toString().replaceAll("/$", "") + "/"))
                        .findFirst().orElseThrow(() -> new AssertionError(name + ": nothing mounted at " + file));
                Map<String, Object> volume = volumes.stream().filter(v -> mount.get("name").equals(v.get("name")))
                        .findFirst().orElseThrow();
                assertThat((Object) at(volume, "secret", "secretName")).as(name + ": " + file + " from a Secret")
                        .isNotNull();
                secrets.add(at(volume, "secret", "secretName"));
            }
            if ("replay-streams".equals(name)) {
                assertThat(plainEnv(c)).as("the base's own variables are kept")
                        .containsKey("TIDEMARK_KAFKA_STREAMS_APPLICATION_SERVER");
            }
        }
        assertThat(secure).as("the Secrets are the operator's to create, never in the repository")
                .noneMatch(r -> "Secret".equals(r.get("kind")) && secrets.contains(at(r, "metadata", "name")));
    }
}
