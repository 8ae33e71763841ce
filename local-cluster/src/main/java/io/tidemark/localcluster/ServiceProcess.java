package io.tidemark.localcluster;

import io.tidemark.localcluster.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code tidemark <service>} started as its own process, as an operator starts it: its log collected, its
 * management port read from the log, its probes and metrics fetched over HTTP, and SIGTERM sent to stop it.
 */
public final class ServiceProcess implements AutoCloseable {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Pattern PORT = Pattern.compile("management on port (\\d+)");

    private final Process process;
    private final Thread reader;
    private final List<String> log = new CopyOnWriteArrayList<>();
    private final int port;

    private ServiceProcess(Process process) {
        this.process = process;
        this.reader = new Thread(() -> new BufferedReader(new InputStreamReader(process.getErrorStream(),
                StandardCharsets.UTF_8)).lines().forEach(log::add));
        reader.setDaemon(true);
        reader.start();
        try {
            this.port = awaitPort(Duration.ofSeconds(60));
        } catch (RuntimeException e) {
            // Interrupted, or gave up: a child that may still be starting is not left behind.
            process.destroyForcibly();
            throw e;
        }
    }

    private int awaitPort(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            var found = log.stream().map(PORT::matcher).filter(Matcher::find).map(m -> Integer.parseInt(m.group(1)))
                    .findFirst();
            if (found.isPresent()) {
                return found.get();
            }
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + " before opening "
                        + "its management port; its log ends: " + log.subList(Math.max(0, log.size() - 5), log.size()));
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException("the service did not open its management port within " + timeout);
    }

    /** Whether {@code /readyz} answers 200 now. */
    public boolean ready() {
        try {
            return get("/readyz").statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public boolean alive() {
        return process.isAlive();
    }

    /**
     * Starts {@code tidemark <args>} with the given environment, once it has opened its management port.
     *
     * @param main the command's entry point: the services' ({@code ServicesMain}) for a service, as the image runs it
     */
    public static ServiceProcess start(Class<?> main, String heap, Map<String, String> environment, String... args)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(ChildJvm.command(List.of("-Xmx" + heap), main, args));
        builder.environment().putAll(environment);
        return new ServiceProcess(builder.start());
    }

    /** The port of the service's management endpoint ({@code /metrics}, {@code /healthz}, {@code /readyz}). */
    public int managementPort() {
        return port;
    }

    public List<String> log() {
        return log;
    }

    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Whether {@code /metrics} has a line starting with {@code prefix} and ending with {@code suffix}. */
    public boolean metric(String prefix, String suffix) throws IOException, InterruptedException {
        return get("/metrics").body().lines().anyMatch(l -> l.startsWith(prefix) && l.endsWith(suffix));
    }

    /**
     * Sends SIGTERM (through the handle: {@code Process.destroy()} would also close our end of its stderr) and
     * returns its exit status once it ended and its log was read to the end.
     */
    public int terminate() throws InterruptedException {
        process.toHandle().destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the service did not stop within 30 s of SIGTERM");
        }
        reader.join(5_000);
        return process.exitValue();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }
}
