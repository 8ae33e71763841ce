package io.tidemark.emulator.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.tidemark.emulator.FaultInjector;
import io.tidemark.emulator.cluster.FilerCluster;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.emulator.s3.ObjectVersionInfo;
import io.tidemark.emulator.s3.S3Exception;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The emulator's admin API: {@code POST /s3/<operation>} drives the emulated S3 gateway and
 * {@code POST /faults/<operation>} turns the fault knobs, each with a JSON object of arguments; answers are JSON.
 * It stands where SeaweedFS's S3 HTTP port would be. Failures answer 400 with {@code {"code","message"}}.
 */
public final class AdminHttpServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor;
    private final S3Gateway s3;
    private final FaultInjector faults;
    private final FilerCluster filers;

    private AdminHttpServer(HttpServer server, ExecutorService executor, S3Gateway s3, FaultInjector faults,
                            FilerCluster filers) {
        this.server = server;
        this.executor = executor;
        this.s3 = s3;
        this.faults = faults;
        this.filers = filers;
    }

    public static AdminHttpServer start(String host, int port, S3Gateway s3, FaultInjector faults, FilerCluster filers)
            throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
        ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "emulator-admin");
            t.setDaemon(true);
            return t;
        });
        AdminHttpServer admin = new AdminHttpServer(server, executor, s3, faults, filers);
        server.createContext("/s3/", exchange -> admin.handle(exchange, "/s3/", admin::s3));
        server.createContext("/faults/", exchange -> admin.handle(exchange, "/faults/", admin::faults));
        server.createContext("/healthz", exchange -> admin.respond(exchange, 200, JSON.createObjectNode().put("status", "ok")));
        server.setExecutor(executor);
        server.start();
        return admin;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    private interface Operation {
        JsonNode run(String name, Args args);
    }

    private void handle(HttpExchange exchange, String prefix, Operation operation) throws IOException {
        try (exchange) {
            if (!exchange.getRequestMethod().equals("POST")) {
                respond(exchange, 405, error("MethodNotAllowed", "use POST"));
                return;
            }
            String name = exchange.getRequestURI().getPath().substring(prefix.length());
            JsonNode body;
            try (InputStream in = exchange.getRequestBody()) {
                byte[] bytes = in.readAllBytes();
                body = bytes.length == 0 ? JSON.createObjectNode() : JSON.readTree(bytes);
            } catch (IOException e) {
                respond(exchange, 400, error("MalformedRequest", "the body is not JSON: " + e.getMessage()));
                return;
            }
            try {
                respond(exchange, 200, operation.run(name, new Args(body)));
            } catch (UnknownOperation e) {
                respond(exchange, 404, error("UnknownOperation", e.getMessage()));
            } catch (S3Exception e) {
                respond(exchange, 400, error(e.code(), e.getMessage()));
            } catch (IllegalArgumentException e) {
                respond(exchange, 400, error("InvalidArgument", e.getMessage()));
            }
        }
    }

    private JsonNode s3(String operation, Args a) {
        ObjectNode out = JSON.createObjectNode();
        switch (operation) {
            case "create-bucket" -> s3.createBucket(a.text("bucket"), a.bool("objectLock", false));
            case "delete-bucket" -> s3.deleteBucket(a.text("bucket"));
            case "put-versioning" -> s3.setVersioning(a.text("bucket"), BucketVersioning.parse(a.text("status")));
            case "put-lifecycle" -> {
                if (a.bool("unchecked", false)) {
                    s3.putLifecycleUnchecked(a.text("bucket"), a.text("xml"));
                } else {
                    s3.putLifecycle(a.text("bucket"), a.text("xml"));
                }
            }
            case "delete-lifecycle" -> s3.deleteLifecycle(a.text("bucket"));
            case "put-object" -> out.put("versionId", s3.putObject(a.text("bucket"), a.text("key"), a.number("size", 0),
                    a.map("tags"), a.map("metadata")));
            case "delete-object" -> out.put("versionId", s3.deleteObject(a.text("bucket"), a.text("key")));
            case "delete-version" -> out.put("deleted", s3.deleteVersion(a.text("bucket"), a.text("key"),
                    a.text("versionId")));
            case "put-tagging" -> s3.putTags(a.text("bucket"), a.text("key"), a.optional("versionId"), a.map("tags"));
            case "put-legal-hold" -> s3.putLegalHold(a.text("bucket"), a.text("key"), a.optional("versionId"),
                    a.bool("on", true));
            case "put-retention" -> s3.putRetention(a.text("bucket"), a.text("key"), a.optional("versionId"),
                    a.text("mode"), Instant.parse(a.text("until")));
            case "create-upload" -> out.put("uploadId", s3.createUpload(a.text("bucket"), a.text("key")));
            case "upload-part" -> s3.uploadPart(a.text("bucket"), a.text("uploadId"), (int) a.number("part", 1),
                    a.number("size", 0));
            case "complete-upload" -> out.put("versionId", s3.completeUpload(a.text("bucket"), a.text("uploadId")));
            case "abort-upload" -> s3.abortUpload(a.text("bucket"), a.text("uploadId"));
            case "backdate" -> s3.backdate(a.text("bucket"), a.text("key"), a.optional("versionId"),
                    Instant.parse(a.text("mtime")));
            case "backdate-upload" -> s3.backdateUpload(a.text("bucket"), a.text("uploadId"),
                    Instant.parse(a.text("initiated")));
            case "drift" -> s3.drift(a.text("bucket"), a.text("key"), a.optional("versionId"));
            case "list-versions" -> {
                ArrayNode versions = out.putArray("versions");
                for (ObjectVersionInfo v : s3.versions(a.text("bucket"), a.text("key"))) {
                    versions.addObject().put("versionId", v.versionId()).put("latest", v.latest())
                            .put("deleteMarker", v.deleteMarker()).put("path", v.path())
                            .put("mtime", Instant.ofEpochSecond(v.entry().getAttributes().getMtime(),
                                    v.entry().getAttributes().getMtimeNs()).toString())
                            .put("size", v.entry().getAttributes().getFileSize());
                }
            }
            default -> throw new UnknownOperation("no S3 operation " + operation);
        }
        return out;
    }

    private JsonNode faults(String operation, Args a) {
        ObjectNode out = JSON.createObjectNode();
        switch (operation) {
            case "set" -> {
                if (a.has("unavailableProbability")) {
                    faults.setUnavailableProbability(Double.parseDouble(a.text("unavailableProbability")));
                }
                if (a.has("latencyMs")) {
                    faults.setLatency(Duration.ofMillis(a.number("latencyMs", 0)));
                }
            }
            case "force-outcome" -> faults.force(a.text("bucket"), a.text("objectPath"),
                    LifecycleDeleteOutcome.valueOf(a.text("outcome")), a.optional("reason") == null ? "FORCED"
                            : a.optional("reason"));
            case "clear-outcome" -> faults.clearForced(a.text("bucket"), a.text("objectPath"));
            case "clear" -> faults.clearAll();
            case "drop-subscriptions" -> out.put("dropped", filers.dropSubscriptions());
            case "stop-filer" -> filers.stopFiler(filerIndex(a));
            case "start-filer" -> filers.startFiler(filerIndex(a));
            case "add-filer" -> {
                int index = filers.addFiler();
                out.put("filer", index).put("address", filers.filerAddress(index));
            }
            case "delay-filer" -> filers.delayFiler(filerIndex(a), Duration.ofMillis(a.number("ms", 0)));
            case "delay-filer-stream" -> filers.delayLocalStream(filerIndex(a), Duration.ofMillis(a.number("ms", 0)));
            case "filer-clock-offset" -> filers.setFilerClockOffset(filerIndex(a), Duration.ofMillis(a.number("ms", 0)));
            case "fail-reads" -> faults.failObjectReads(a.text("bucket"), a.text("objectPath"),
                    (int) a.number("times", 1));
            case "meta-log-memory" -> s3.store().setMetaLogMemoryWindow((int) a.number("events",
                    FilerStore.DEFAULT_META_LOG_MEMORY_WINDOW));
            case "purge-log" -> out.put("purged", s3.store().purgeMetaLogBefore(java.time.Instant.parse(a.text("before"))));
            default -> throw new UnknownOperation("no fault operation " + operation);
        }
        out.put("unavailableProbability", faults.unavailableProbability());
        out.put("latencyMs", faults.latency().toMillis());
        return out;
    }

    private int filerIndex(Args a) {
        long index = a.number("filer", -1);
        if (index < 0 || index >= filers.size()) {
            throw new IllegalArgumentException("filer must be an index from 0 to " + (filers.size() - 1));
        }
        return (int) index;
    }

    private void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static JsonNode error(String code, String message) {
        return JSON.createObjectNode().put("code", code).put("message", message);
    }

    private static final class UnknownOperation extends RuntimeException {
        UnknownOperation(String message) {
            super(message);
        }
    }

    /** Arguments of one operation; values may be JSON strings or numbers, as command-line tools send them. */
    private record Args(JsonNode body) {

        boolean has(String name) {
            return body.hasNonNull(name);
        }

        String text(String name) {
            if (!has(name)) {
                throw new IllegalArgumentException("missing argument " + name);
            }
            return body.get(name).asText();
        }

        String optional(String name) {
            return has(name) ? body.get(name).asText() : null;
        }

        long number(String name, long fallback) {
            if (!has(name)) {
                return fallback;
            }
            try {
                return Long.parseLong(body.get(name).asText());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("argument " + name + " must be a whole number");
            }
        }

        boolean bool(String name, boolean fallback) {
            return has(name) ? Boolean.parseBoolean(body.get(name).asText()) : fallback;
        }

        Map<String, String> map(String name) {
            Map<String, String> map = new LinkedHashMap<>();
            if (has(name)) {
                body.get(name).properties().forEach(e -> map.put(e.getKey(), e.getValue().asText()));
            }
            return map;
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }


}
