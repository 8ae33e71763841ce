package io.tidemark.devtools.bench;

import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The raw ceiling of a populator tailing several filers: every filer's own meta-log ({@code SubscribeLocalMetadata})
 * drained at once, one subscriber each, with nothing done to the events. It is over when the last subscriber has had
 * its filer's last event. A catch-up from the start reads the log files, which on a shared store hold every filer's
 * events (upstream's quirk), so each subscriber also receives its peers' events: the same copies the populator reads
 * and drops, so the two are measured over the same reads.
 */
final class LocalLogsDrain {

    /** One filer to drain: where it is, and the stamp of the last event it recorded itself. */
    record Filer(String address, long lastOwnTsNs) {
    }

    /** {@code delivered}: every event the subscribers received, copies of peers' events included. */
    record Result(double seconds, long delivered) {
    }

    private LocalLogsDrain() {
    }

    static Result drain(List<Filer> filers, String clientName) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(filers.size());
        try {
            long start = System.nanoTime();
            List<Future<Long>> drains = new ArrayList<>();
            for (Filer filer : filers) {
                drains.add(pool.submit(() -> drainOne(filer, clientName)));
            }
            long delivered = 0;
            for (Future<Long> drain : drains) {
                delivered += drain.get();
            }
            return new Result((System.nanoTime() - start) / 1e9, delivered);
        } finally {
            pool.shutdownNow();
        }
    }

    private static long drainOne(Filer filer, String clientName) throws InterruptedException {
        try (FilerClient client = FilerClient.connect(filer.address(), GrpcTls.PLAINTEXT, Duration.ofSeconds(30));
             MetadataSubscription subscription = client.subscribe(SubscriptionOptions.from(clientName, "/buckets/", 0)
                     .local())) {
            long delivered = 0;
            SubscribeMetadataResponse event;
            // The stream comes in stamp order: the filer's own last event is the last one it has to give.
            while ((event = subscription.poll(Duration.ofSeconds(10))) != null) {
                delivered++;
                if (event.getTsNs() >= filer.lastOwnTsNs()) {
                    break;
                }
            }
            return delivered;
        }
    }
}
