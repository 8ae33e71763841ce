package io.tidemark.service;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * A service's management port: {@code /metrics} (Prometheus text), {@code /healthz} (liveness: 200 unless the
 * service failed) and {@code /readyz} (readiness: 200 only while it runs and can do its work; 503 otherwise).
 */
public final class ManagementServer implements AutoCloseable {

    private final HttpServer server;
    private final ExecutorService executor;

    private ManagementServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    public static ManagementServer start(String host, int port, PrometheusMeterRegistry registry, BooleanSupplier live,
                                         BooleanSupplier ready) {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
            ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
                Thread t = new Thread(r, "management-http");
                t.setDaemon(true);
                return t;
            });
            server.createContext("/metrics", exchange -> respond(exchange, 200,
                    "text/plain; version=0.0.4; charset=utf-8", registry.scrape()));
            server.createContext("/healthz", exchange -> probe(exchange, live.getAsBoolean()));
            server.createContext("/readyz", exchange -> probe(exchange, ready.getAsBoolean()));
            server.setExecutor(executor);
            server.start();
            return new ManagementServer(server, executor);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the management port " + host + ":" + port, e);
        }
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private static void probe(HttpExchange exchange, boolean ok) throws IOException {
        respond(exchange, ok ? 200 : 503, "text/plain; charset=utf-8", ok ? "ok\n" : "unavailable\n");
    }

    private static void respond(HttpExchange exchange, int status, String type, String body) throws IOException {
        try (exchange) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", type);
            exchange.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
