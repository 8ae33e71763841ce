package io.tidemark.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.config.TidemarkConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

class ServiceRunnerTest {

    private final HttpClient http = HttpClient.newHttpClient();
    private final List<Thread> hooks = new CopyOnWriteArrayList<>();

    private static TidemarkConfig config() {
        return new TidemarkConfig(Map.of("management.host", "127.0.0.1", "management.port", "0",
                "shutdown.timeout.ms", "2000", "grpc.deadline.ms", "1000", "kafka.sasl.jaas.config", "secret-stuff"));
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void shouldServeProbesAndMetricsAndStopOnTheShutdownHook() throws Exception {
        ManagedServiceTest.Probe probe = new ManagedServiceTest.Probe();
        var registry = Metrics.newRegistry("probe");
        registry.counter("tidemark_probe_events_total", "kind", "x").increment(3);
        ServiceRunner runner = new ServiceRunner(probe, config(), registry);
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> {
            try {
                return runner.run(hooks::add);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> probe.state() == ServiceState.RUNNING && !hooks.isEmpty());
        int port = runner.managementPort();
        assertThat(get(port, "/healthz").statusCode()).isEqualTo(200);
        assertThat(get(port, "/readyz").statusCode()).isEqualTo(200);
        assertThat(get(port, "/metrics").body()).contains("tidemark_service_ready{service=\"probe\"} 1.0");
        probe.caughtUp = false;
        assertThat(get(port, "/readyz").statusCode()).isEqualTo(503);
        String metrics = get(port, "/metrics").body();
        // Readiness as a metric too, for the "service not ready" alert.
        assertThat(metrics).contains("tidemark_service_ready{service=\"probe\"} 0.0");
        assertThat(metrics).contains("tidemark_probe_events_total{kind=\"x\",service=\"probe\"} 3.0")
                .contains("jvm_memory_used_bytes");

        long began = System.nanoTime();
        hooks.get(0).run();
        assertThat(exit.get(10, TimeUnit.SECONDS)).isZero();
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(Duration.ofSeconds(5));
        assertThat(probe.state()).isEqualTo(ServiceState.STOPPED);
    }

    @Test
    void shouldExitOneWhenTheServiceFailsToStart() throws Exception {
        ManagedServiceTest.Probe probe = new ManagedServiceTest.Probe();
        probe.failStart = true;
        assertThat(new ServiceRunner(probe, config(), Metrics.newRegistry("probe")).run(hooks::add)).isEqualTo(1);
    }

    @Test
    void shouldExposeKafkaClientMetrics() throws Exception {
        var registry = Metrics.newRegistry("probe");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers", "127.0.0.1:1"),
                new StringSerializer(), new StringSerializer());
             AutoCloseable bound = Metrics.bind(registry, producer)) {
            assertThat(registry.scrape()).contains("kafka_producer_");
        }
    }
}
