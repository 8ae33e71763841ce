package io.tidemark.cli.populator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.cli.CliRunner;
import io.tidemark.cli.Main;
import io.tidemark.localcluster.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.localcluster.LocalClusterTest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Runs {@code tidemark populator} as its own process, as an operator would, and stops it with SIGTERM. */
@LocalClusterTest
class PopulatorCommandTest {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern PORT = Pattern.compile("management on port (\\d+)");

    private static HttpResponse<String> get(int port, String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldTailTheFilerServeHealthAndMetricsAndStopOnSigterm(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder builder = new ProcessBuilder(java, "-Xmx384m", "-cp", System.getProperty("java.class.path"),
                Main.class.getName(), "populator", "--set", "topic.prefix=" + ns.topicPrefix(),
                "--set", "zookeeper.chroot=" + ns.zookeeperChroot(), "--set", "management.port=0",
                "--set", "management.host=127.0.0.1", "--set", "kafka.producer.linger.ms=1");
        builder.environment().putAll(cluster.environment());
        Process process = builder.start();
        List<String> log = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8)).lines().forEach(log::add));
        reader.setDaemon(true);
        reader.start();
        try {
            int port = await().atMost(Duration.ofSeconds(60)).until(() -> log.stream().map(PORT::matcher)
                    .filter(Matcher::find).map(m -> Integer.parseInt(m.group(1))).findFirst().orElse(-1), p -> p > 0);
            assertThat(log).anyMatch(l -> l.contains("kafka.bootstrap.servers = " + cluster.kafkaBootstrapServers()));
            await().atMost(Duration.ofSeconds(60)).until(() -> get(port, "/metrics").body().lines()
                    .anyMatch(l -> l.startsWith("tidemark_populator_leader{") && l.endsWith(" 1.0")));
            assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).until(() -> get(port, "/readyz").statusCode() == 200);

            String bucket = "cli-" + Long.toHexString(System.nanoTime());
            cluster.emulator().s3().createBucket(bucket, false);
            cluster.emulator().s3().putObject(bucket, "k", 1, Map.of(), Map.of());
            await().atMost(Duration.ofSeconds(60)).until(() -> get(port, "/metrics").body().lines()
                    .anyMatch(l -> l.startsWith("tidemark_populator_events_published_total{kind=\"object_written\"")
                            && !l.endsWith(" 0.0")));

            // SIGTERM through the handle: Process.destroy() would also close our end of the child's stderr.
            process.toHandle().destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            // 143 is 128 + SIGTERM: the JVM's own exit status after the shutdown hook has stopped the service.
            assertThat(process.exitValue()).isIn(0, 143);
            reader.join(5_000);
            assertThat(log).anyMatch(l -> l.contains("populator: status=stopped"));
        } finally {
            process.destroyForcibly();
        }
    }

    @Test
    void shouldBenchmarkExactlyOnceAgainstTheRawSubscribeRate() {
        CliRunner.Result r = CliRunner.run("populator", "bench", "--events", "3000", "--rounds", "1");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("populator benchmark: 3000 filer events, a warm-up and 1 rounds")
                .containsPattern("round 1: raw SubscribeMetadata [\\d,]+ events/s; populator [\\d,]+ events/s "
                        + "exactly-once \\(3000 published, \\d+ transactions")
                .containsPattern("best: raw [\\d,]+ events/s; populator [\\d,]+ events/s; ratio \\d\\.\\d\\d\\n");
    }
}
