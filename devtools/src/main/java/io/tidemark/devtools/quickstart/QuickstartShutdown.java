package io.tidemark.devtools.quickstart;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the quickstart stops after Ctrl-C or SIGTERM. Its clients first — the live view's Kafka client and the
 * services — all at once, each on a thread of its own: they do not depend on one another, and one after another their
 * stops added up (2 s on two cores). The cluster they use comes after them: stopped first, clients would retry
 * against a broker or ensemble already gone and print their traces.
 *
 * <p>When the run's data is thrown away at exit (no {@code --data-dir}), nothing of it needs a careful stop, and the
 * user waits for the prompt: the clients get {@link #THROWAWAY_CLIENTS}, the whole stop {@link #THROWAWAY_WHOLE}, the
 * nodes (Kafka, ZooKeeper, the emulator) stop together, and a part still stopping when its time is up is left to the
 * JVM's exit. When the state is kept ({@code --data-dir}) the next run starts from it, so each part stops to the end:
 * the clients, then the nodes one after another in {@link io.tidemark.localcluster.LocalCluster}'s order, a few
 * seconds; the clients get {@link #KEEP_STATE_CLIENTS} only so that one that hangs cannot hold the prompt for ever
 * (each service bounds its own stop by {@code shutdown.timeout.ms}, 25 s by default).
 */
final class QuickstartShutdown {

    static final Duration THROWAWAY_CLIENTS = Duration.ofMillis(1_500);
    static final Duration THROWAWAY_WHOLE = Duration.ofMillis(2_500);
    static final Duration KEEP_STATE_CLIENTS = Duration.ofSeconds(30);

    private static final Logger log = LoggerFactory.getLogger(QuickstartShutdown.class);

    /** One thing to stop, by name. */
    record Part(String name, AutoCloseable closeable) {
    }

    /** The parts still stopping when the stop went on without them (none when every part stopped). */
    record Outcome(List<String> unfinished) {
        boolean complete() {
            return unfinished.isEmpty();
        }
    }

    private final boolean keepState;
    private final Duration clientsBudget;
    private final Duration wholeBudget;

    /**
     * @param keepState   whether the nodes stop one after another and to the end (a --data-dir run)
     * @param clientsBudget how long the clients are waited for
     * @param wholeBudget how long the whole stop is waited for, when the state is thrown away (ignored otherwise)
     */
    QuickstartShutdown(boolean keepState, Duration clientsBudget, Duration wholeBudget) {
        this.keepState = keepState;
        this.clientsBudget = clientsBudget;
        this.wholeBudget = wholeBudget;
    }

    static QuickstartShutdown throwaway() {
        return new QuickstartShutdown(false, THROWAWAY_CLIENTS, THROWAWAY_WHOLE);
    }

    static QuickstartShutdown keepingState() {
        return new QuickstartShutdown(true, KEEP_STATE_CLIENTS, null);
    }

    boolean keepsState() {
        return keepState;
    }

    /** Stops {@code clients}, then {@code cluster} (its nodes in the order they are to stop one after another). */
    Outcome stop(List<Part> clients, List<Part> cluster) {
        long began = System.nanoTime();
        List<String> unfinished = new ArrayList<>(await(startAll(clients), began + clientsBudget.toNanos()));
        if (keepState) {
            for (Part node : cluster) {
                stopNow(node);
            }
        } else {
            unfinished.addAll(await(startAll(cluster), began + wholeBudget.toNanos()));
        }
        log.info("stopped in {} ms{}", (System.nanoTime() - began) / 1_000_000,
                unfinished.isEmpty() ? "" : "; went on without waiting longer for " + String.join(", ", unfinished));
        return new Outcome(List.copyOf(unfinished));
    }

    @Override
    public String toString() {
        return keepState ? "keeping the state" : "throwing the data away";
    }

    private static Map<Part, CompletableFuture<Void>> startAll(List<Part> parts) {
        Map<Part, CompletableFuture<Void>> stopping = new LinkedHashMap<>();
        for (Part part : parts) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            // Daemon threads: one still stopping when the JVM exits does not hold the exit.
            Thread thread = new Thread(() -> {
                try {
                    stopNow(part);
                } finally {
                    done.complete(null);
                }
            }, "quickstart-stop-" + part.name());
            thread.setDaemon(true);
            thread.start();
            stopping.put(part, done);
        }
        return stopping;
    }

    /** Waits for every part until {@code deadlineNanos}; returns the names of those still stopping then. */
    private static List<String> await(Map<Part, CompletableFuture<Void>> stopping, long deadlineNanos) {
        List<String> unfinished = new ArrayList<>();
        for (Map.Entry<Part, CompletableFuture<Void>> entry : stopping.entrySet()) {
            try {
                entry.getValue().get(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                log.warn("{} is still stopping; going on without it", entry.getKey().name());
                unfinished.add(entry.getKey().name());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                unfinished.add(entry.getKey().name());
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());   // never: the future is only ever completed normally
            }
        }
        return unfinished;
    }

    private static void stopNow(Part part) {
        long began = System.nanoTime();
        try {
            part.closeable().close();
            log.info("{} stopped in {} ms", part.name(), (System.nanoTime() - began) / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("{} was interrupted while stopping", part.name());
        } catch (Exception e) {
            log.warn("{} did not stop cleanly after {} ms: {}", part.name(), (System.nanoTime() - began) / 1_000_000,
                    e.toString(), e);
        }
    }
}
