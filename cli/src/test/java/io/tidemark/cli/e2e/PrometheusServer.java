package io.tidemark.cli.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * A real Prometheus (the binary of Debian's package) on loopback, scraping given targets every second, for tests
 * that check what operators will see. Its port is chosen by trying: Prometheus cannot report a port the system
 * picked, so a port that turns out taken is tried again with another.
 */
final class PrometheusServer implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final int port;

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    static Optional<Path> binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, "prometheus");
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    static PrometheusServer start(Path binary, Path dir, List<Integer> targetPorts, Path rules) throws Exception {
        String targets = targetPorts.stream().map(p -> "\"127.0.0.1:" + p + "\"").collect(Collectors.joining(", "));
        Path config = dir.resolve("prometheus.yml");
        Files.writeString(config, "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
                + "rule_files: [\"" + rules + "\"]\n"
                + "scrape_configs:\n"
                + "  - job_name: tidemark\n"
                + "    static_configs:\n"
                + "      - targets: [" + targets + "]\n");
        IllegalStateException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = unusedPort();
            Process process = new ProcessBuilder(binary.toString(), "--config.file=" + config,
                    "--web.listen-address=127.0.0.1:" + port, "--storage.tsdb.path=" + dir.resolve("data-" + attempt))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus-" + attempt + ".log").toFile())
                    .start();
            PrometheusServer server = new PrometheusServer(process, port);
            if (server.awaitReady(Duration.ofSeconds(30))) {
                return server;
            }
            server.close();
            last = new IllegalStateException("Prometheus did not become ready on port " + port + ": "
                    + Files.readString(dir.resolve("prometheus-" + attempt + ".log")));
        }
        throw last;
    }

    private static int unusedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private boolean awaitReady(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                if (get("/-/ready").statusCode() == 200) {
                    return true;
                }
            } catch (IOException notYet) {
                // Still starting.
            }
            Thread.sleep(200);
        }
        return false;
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** The API's answer to an instant query: its {@code data} node; an error answer throws. */
    JsonNode query(String expression) throws IOException, InterruptedException {
        JsonNode answer = JSON.readTree(get("/api/v1/query?query="
                + URLEncoder.encode(expression, StandardCharsets.UTF_8)).body());
        if (!"success".equals(answer.path("status").asText())) {
            throw new IllegalStateException(expression + ": " + answer);
        }
        return answer.path("data");
    }

    /** Each scrape target's health ("up", "down", "unknown"). */
    List<String> targetHealth() throws IOException, InterruptedException {
        JsonNode targets = JSON.readTree(get("/api/v1/targets").body()).path("data").path("activeTargets");
        return StreamSupport.stream(targets.spliterator(), false)
                .map(t -> t.path("health").asText()).toList();
    }

    /** Each alerting rule's health ("ok" or "err") by name, as Prometheus evaluated it. */
    Map<String, String> ruleHealth() throws IOException, InterruptedException {
        Map<String, String> health = new TreeMap<>();
        for (JsonNode group : JSON.readTree(get("/api/v1/rules").body()).path("data").path("groups")) {
            for (JsonNode rule : group.path("rules")) {
                health.put(rule.path("name").asText(), rule.path("health").asText());
            }
        }
        return health;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
