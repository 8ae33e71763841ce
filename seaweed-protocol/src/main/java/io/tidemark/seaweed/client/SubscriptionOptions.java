package io.tidemark.seaweed.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How to subscribe to the filer meta-log.
 *
 * @param sinceNs        deliver events from this timestamp on; the filer treats it as inclusive
 * @param seenAtSinceNs  how many events stamped exactly {@code sinceNs} the caller already has, so a resumed
 *                       subscription neither repeats nor loses events that share a timestamp
 * @param untilNs        stop after this timestamp (0: never)
 * @param idleTimeout    reconnect when nothing, not even a heartbeat, arrives for this long ({@code null}: never)
 * @param maxBackoff     the cap of the exponential reconnect delay
 * @param localOnly      {@code SubscribeLocalMetadata}: only the events this filer originated (in its own timestamp
 *                       order), instead of {@code SubscribeMetadata}, which on a filer with peers merges theirs in
 */
public record SubscriptionOptions(String clientName, String pathPrefix, long sinceNs, int seenAtSinceNs, long untilNs,
                                  Duration idleTimeout, Duration initialBackoff, Duration maxBackoff, int bufferSize,
                                  boolean localOnly) {

    public SubscriptionOptions {
        Objects.requireNonNull(clientName, "clientName");
        Objects.requireNonNull(pathPrefix, "pathPrefix");
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (bufferSize < 1) {
            throw new IllegalArgumentException("bufferSize must be positive");
        }
    }

    public static SubscriptionOptions from(String clientName, String pathPrefix, long sinceNs) {
        return new SubscriptionOptions(clientName, pathPrefix, sinceNs, 0, 0, null, Duration.ofMillis(100),
                Duration.ofSeconds(5), 1024, false);
    }

    public SubscriptionOptions resumingAfter(long tsNs, int seenAtTs) {
        return new SubscriptionOptions(clientName, pathPrefix, tsNs, seenAtTs, untilNs, idleTimeout, initialBackoff,
                maxBackoff, bufferSize, localOnly);
    }

    public SubscriptionOptions until(long tsNs) {
        return new SubscriptionOptions(clientName, pathPrefix, sinceNs, seenAtSinceNs, tsNs, idleTimeout, initialBackoff,
                maxBackoff, bufferSize, localOnly);
    }

    public SubscriptionOptions withIdleTimeout(Duration timeout) {
        return new SubscriptionOptions(clientName, pathPrefix, sinceNs, seenAtSinceNs, untilNs, timeout, initialBackoff,
                maxBackoff, bufferSize, localOnly);
    }

    /** How many events may wait for {@link MetadataSubscription#poll} before the stream is paused. */
    public SubscriptionOptions withBufferSize(int events) {
        return new SubscriptionOptions(clientName, pathPrefix, sinceNs, seenAtSinceNs, untilNs, idleTimeout, initialBackoff,
                maxBackoff, events, localOnly);
    }

    public SubscriptionOptions withBackoff(Duration initial, Duration max) {
        return new SubscriptionOptions(clientName, pathPrefix, sinceNs, seenAtSinceNs, untilNs, idleTimeout, initial, max,
                bufferSize, localOnly);
    }

    /** Subscribes with {@code SubscribeLocalMetadata}: the filer's own events only. */
    public SubscriptionOptions local() {
        return new SubscriptionOptions(clientName, pathPrefix, sinceNs, seenAtSinceNs, untilNs, idleTimeout, initialBackoff,
                maxBackoff, bufferSize, true);
    }
}
