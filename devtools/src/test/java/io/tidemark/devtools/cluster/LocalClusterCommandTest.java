package io.tidemark.devtools.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.devtools.Main;
import io.tidemark.localcluster.ChildJvm;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.junit.jupiter.api.Test;

/** Runs {@code tidemark local-cluster} as its own process, as a user would, and stops it with SIGTERM. */
class LocalClusterCommandTest {

    @Test
    void shouldPrintTheSettingsThenReadyAndStopOnSigterm() throws Exception {
        Process process = new ProcessBuilder(ChildJvm.command(List.of("-Xmx768m"), Main.class, "local-cluster")).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            List<String> lines = new ArrayList<>();
            for (String line = out.readLine(); line != null && !line.equals("READY"); line = out.readLine()) {
                lines.add(line);
            }
            assertThat(lines).hasSize(5);
            assertThat(lines.get(0)).matches("TIDEMARK_KAFKA_BOOTSTRAP_SERVERS=127\\.0\\.0\\.1:\\d+");
            assertThat(lines.get(1)).matches("TIDEMARK_ZOOKEEPER_CONNECT=127\\.0\\.0\\.1:\\d+");
            assertThat(lines.get(2)).matches("TIDEMARK_FILER_ADDRESS=127\\.0\\.0\\.1:\\d+");
            assertThat(lines.get(3)).matches("TIDEMARK_S3_GRPC_ADDRESS=127\\.0\\.0\\.1:\\d+");
            // What `tidemark emulator s3|faults` reads to find the emulator from a second shell.
            assertThat(lines.get(4)).matches("TIDEMARK_EMULATOR_ADMIN_ADDRESS=127\\.0\\.0\\.1:\\d+");
            String adminAddress = lines.get(4).substring(lines.get(4).indexOf('=') + 1);
            assertThat(HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://" + adminAddress + "/healthz")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
            String bootstrap = lines.get(0).substring(lines.get(0).indexOf('=') + 1);
            try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
                assertThat(admin.describeCluster().nodes().get(10, TimeUnit.SECONDS)).hasSize(1);
            }
            long began = System.nanoTime();
            process.destroy();
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - began)).isLessThan(30);
        } finally {
            process.destroyForcibly();
        }
    }
}
