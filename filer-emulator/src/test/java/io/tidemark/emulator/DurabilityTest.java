package io.tidemark.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.emulator.filer.FilerStoreAccess;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DurabilityTest {

    @TempDir
    Path dataDir;

    private FilerEmulator startIn(Path dir) {
        return new FilerEmulator(EmulatorSettings.ephemeral().withDataDir(dir), Clock.systemUTC()).start();
    }

    @Test
    void shouldRebuildTheNamespaceAndLogAfterARestart() {
        List<SubscribeMetadataResponse> before;
        try (FilerEmulator emulator = startIn(dataDir)) {
            emulator.s3().createBucket("b", false);
            emulator.s3().setVersioning("b", BucketVersioning.ENABLED);
            emulator.s3().putObject("b", "dir/k", 10, Map.of("t", "1"), Map.of());
            emulator.s3().deleteObject("b", "dir/k");
            String upload = emulator.s3().createUpload("b", "big");
            emulator.s3().uploadPart("b", upload, 1, 5);
            emulator.s3().abortUpload("b", upload);
            before = FilerStoreAccess.events(emulator.store());
        }
        try (FilerEmulator again = startIn(dataDir)) {
            assertThat(FilerStoreAccess.events(again.store())).isEqualTo(before);
            assertThat(again.s3().versions("b", "dir/k")).hasSize(2);
            assertThat(again.s3().latest("b", "dir/k").orElseThrow().deleteMarker()).isTrue();
            assertThat(again.store().list("/buckets/b/.uploads", "", "", false, 0)).isEmpty();
            long last = before.get(before.size() - 1).getTsNs();
            assertThat(again.store().create("/x", again.store().lookup("/", "buckets").orElseThrow().toBuilder()
                    .setName("y").build(), false).getTsNs()).isGreaterThan(last);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void shouldCutAnInterruptedLastWriteAndKeepEverythingBefore() throws IOException {
        int events;
        try (FilerEmulator emulator = startIn(dataDir)) {
            emulator.s3().createBucket("b", false);
            emulator.s3().putObject("b", "k", 1, Map.of(), Map.of());
            events = FilerStoreAccess.events(emulator.store()).size();
        }
        Files.write(dataDir.resolve("metalog.bin"), new byte[] {0, 0, 1, 0, 9, 9, 9}, StandardOpenOption.APPEND);
        try (FilerEmulator again = startIn(dataDir)) {
            assertThat(FilerStoreAccess.events(again.store())).hasSize(events);
            again.s3().putObject("b", "k2", 1, Map.of(), Map.of());
        }
        try (FilerEmulator third = startIn(dataDir)) {
            assertThat(third.store().lookup("/buckets/b", "k2")).isPresent();
        }
    }

    /**
     * The emulator runs as a child process and is killed with SIGKILL while a writer keeps writing; after each
     * restart on the same data directory a resuming subscriber continues where it stopped. In the end it has
     * seen every acknowledged write exactly once, in order.
     */
    @Test
    void shouldLoseNoEventAndRepeatNoneAcrossKillNineRestarts() throws Exception {
        int[] ports = distinctFreePorts(3);
        int filerPort = ports[0];
        int s3Port = ports[1];
        int adminPort = ports[2];
        List<String> acknowledged = new ArrayList<>();
        List<SubscribeMetadataResponse> seen = new ArrayList<>();
        long resumeTs = 0;
        int seenAtResumeTs = 0;
        HttpClient http = HttpClient.newHttpClient();
        for (int life = 0; life < 3; life++) {
            Process child = startChild(filerPort, s3Port, adminPort);
            try (FilerClient client = FilerClient.connect("127.0.0.1:" + filerPort, GrpcTls.PLAINTEXT,
                    Duration.ofSeconds(5));
                 MetadataSubscription s = client.subscribe(SubscriptionOptions.from("durability", "/buckets/", 0)
                         .resumingAfter(resumeTs, seenAtResumeTs))) {
                if (life == 0) {
                    admin(http, adminPort, "create-bucket", "{\"bucket\":\"b\"}");
                    acknowledged.add("b");
                }
                for (int i = 0; i < 40; i++) {
                    String key = "life" + life + "-" + i;
                    admin(http, adminPort, "put-object", "{\"bucket\":\"b\",\"key\":\"" + key + "\",\"size\":1}");
                    acknowledged.add(key);
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (seen.size() < acknowledged.size() && System.nanoTime() < deadline) {
                    SubscribeMetadataResponse e = s.poll(Duration.ofMillis(100));
                    if (e != null) {
                        seen.add(e);
                    }
                }
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                // Whatever arrived after the kill is still an acknowledged event.
                for (SubscribeMetadataResponse e = s.poll(Duration.ofMillis(200)); e != null; e = s.poll(Duration.ofMillis(200))) {
                    seen.add(e);
                }
            } finally {
                child.destroyForcibly();
            }
            long last = seen.get(seen.size() - 1).getTsNs();
            resumeTs = last;
            seenAtResumeTs = (int) seen.stream().filter(e -> e.getTsNs() == last).count();
        }
        assertThat(seen).extracting(e -> e.getEventNotification().getNewEntry().getName())
                .containsExactlyElementsOf(acknowledged);
    }

    private Process startChild(int filerPort, int s3Port, int adminPort) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                EmulatorMain.class.getName(), "--filer-port", String.valueOf(filerPort), "--s3-grpc-port",
                String.valueOf(s3Port), "--admin-port", String.valueOf(adminPort), "--data-dir", dataDir.toString())
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        for (String line = out.readLine(); line != null; line = out.readLine()) {
            if (line.startsWith("READY ")) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "child-output");
                drain.setDaemon(true);
                drain.start();
                return child;
            }
        }
        throw new IllegalStateException("the emulator child exited before it was ready");
    }

    private static void admin(HttpClient http, int port, String op, String json) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/s3/" + op))
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    }

    /** Held open together while chosen: ports chosen one after another can repeat. */
    private static int[] distinctFreePorts(int count) throws IOException {
        ServerSocket[] held = new ServerSocket[count];
        try {
            int[] ports = new int[count];
            for (int i = 0; i < count; i++) {
                held[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                ports[i] = held[i].getLocalPort();
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
    }
}
