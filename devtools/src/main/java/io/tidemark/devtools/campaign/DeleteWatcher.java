package io.tidemark.devtools.campaign;

import io.tidemark.devtools.bench.Latencies;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches the filer's own meta-log for deletes under {@code /buckets/}, from now on, and tells when each path was
 * deleted by the filer's clock — the one the due times are stamped with, so latencies compare like with like.
 */
final class DeleteWatcher implements AutoCloseable {

    /**
     * What a set of objects saw: how many were deleted and how late (seconds after due), and the span of the deletes.
     *
     * @param firstSeconds the first delete, seconds after the first due time
     */
    record Phase(int count, int missing, double p50, double p99, double max, double spanSeconds,
                 double firstSeconds) {

        double rate() {
            return count / spanSeconds;
        }

        /** The rate once deletes have begun: what the stages sustain, without the wait for the first. */
        double drainRate() {
            return count / Math.max(0.001, spanSeconds - firstSeconds);
        }
    }

    private final Map<String, Long> deletedAtNs = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean watching = true;

    private DeleteWatcher(FilerClient filer) {
        thread = new Thread(() -> watch(filer), "bench-delete-watcher");
        thread.setDaemon(true);
        thread.start();
    }

    static DeleteWatcher start(FilerClient filer) {
        return new DeleteWatcher(filer);
    }

    private void watch(FilerClient filer) {
        try (MetadataSubscription subscription = filer.subscribe(SubscriptionOptions.from("tidemark-bench",
                "/buckets/", EpochNanos.of(Instant.now())))) {
            while (watching) {
                FilerEvent event = subscription.pollEvent(Duration.ofMillis(200));
                if (event == null) {
                    continue;
                }
                EventNotification n = event.response().getEventNotification();
                if (n.hasOldEntry() && !n.hasNewEntry() && !n.getOldEntry().getIsDirectory()) {
                    String path = event.response().getDirectory() + "/" + n.getOldEntry().getName();
                    deletedAtNs.put(path, event.response().getTsNs());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** How many deletes it has seen so far. */
    int seen() {
        return deletedAtNs.size();
    }

    /** Waits for every path's delete, then the latency figures (seconds after due) and the span of the deletes. */
    Phase await(Map<String, Instant> due, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && !deletedAtNs.keySet().containsAll(due.keySet())) {
            Thread.sleep(200);
        }
        List<Double> late = new ArrayList<>();
        long firstDue = Long.MAX_VALUE;
        long lastDelete = Long.MIN_VALUE;
        long firstDelete = Long.MAX_VALUE;
        int missing = 0;
        for (Map.Entry<String, Instant> e : due.entrySet()) {
            Long deleted = deletedAtNs.get(e.getKey());
            if (deleted == null) {
                missing++;
                continue;
            }
            long dueNs = EpochNanos.of(e.getValue());
            late.add((deleted - dueNs) / 1e9);
            firstDue = Math.min(firstDue, dueNs);
            lastDelete = Math.max(lastDelete, deleted);
            firstDelete = Math.min(firstDelete, deleted);
        }
        Latencies latencies = Latencies.of(late);
        double span = Math.max(0.001, (lastDelete - firstDue) / 1e9);
        return new Phase(latencies.count(), missing, latencies.percentile(0.50), latencies.percentile(0.99),
                latencies.max(), span, late.isEmpty() ? Double.NaN : (firstDelete - firstDue) / 1e9);
    }

    @Override
    public void close() throws InterruptedException {
        watching = false;
        thread.join(5_000);
    }
}
