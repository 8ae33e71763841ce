package io.tidemark.cli.status;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import java.time.Duration;

/**
 * Asks the filer what the populator has not published yet: a short subscription from the committed checkpoint
 * (skipping the events counted at its timestamp, as the populator does) that counts what the filer already holds
 * beyond it. It reads, it never publishes.
 */
final class FilerBacklog {

    /** Counting stops here: past it the answer is "at least". */
    static final int MOST_COUNTED = 100_000;
    /** The filer has sent everything it holds once it stays quiet this long. */
    private static final Duration QUIET = Duration.ofMillis(700);
    private static final Duration LONGEST = Duration.ofSeconds(10);

    private FilerBacklog() {
    }

    static StatusReport.Backlog read(TidemarkConfig config, PopulatorCheckpoint checkpoint) {
        String address = config.getString(TidemarkConfig.FILER_ADDRESS);
        try (FilerClient filer = FilerClient.connect(address, config.grpcTls(), Duration.ofSeconds(5))) {
            String directory;
            try {
                directory = filer.bucketsDirectory();
            } catch (RuntimeException e) {
                return new StatusReport.Backlog(0, null, "the filer at " + address + " does not answer: "
                        + e.getMessage());
            }
            SubscriptionOptions options = SubscriptionOptions.from("tidemark-status", directory + "/", 0)
                    .resumingAfter(checkpoint.tsNs(), checkpoint.eventsAtTs());
            long events = 0;
            Long oldest = null;
            long until = System.nanoTime() + LONGEST.toNanos();
            try (MetadataSubscription subscription = filer.subscribe(options)) {
                while (events < MOST_COUNTED && System.nanoTime() < until) {
                    FilerEvent event = subscription.pollEvent(QUIET);
                    if (event == null) {
                        break;
                    }
                    if (oldest == null) {
                        oldest = event.response().getTsNs();
                    }
                    events++;
                }
                if (subscription.reconnects() > 0 && events == 0) {
                    return new StatusReport.Backlog(0, null, "the filer at " + address
                            + " broke off the meta-log subscription");
                }
            }
            return new StatusReport.Backlog(events, oldest == null ? null : EpochNanos.toInstant(oldest), null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new StatusReport.Backlog(0, null, "interrupted");
        }
    }
}
