package io.tidemark.objectprocessor;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loop's offset commits. Only a position that moved since the last commit the broker acknowledged is sent, so an
 * idle or held partition costs no commit traffic; a failed commit is only logged, because the next one covers it and
 * a position not committed is merely work repeated (the gateway's identity check makes a repeated delete a NOOP).
 * Used on the loop's thread only; the asynchronous acknowledgements arrive there too, inside {@code poll}.
 */
final class OffsetCommits {

    private static final Logger log = LoggerFactory.getLogger(OffsetCommits.class);

    private final Consumer<?, ?> consumer;
    private final long intervalNanos;
    private final Map<TopicPartition, Long> committed = new HashMap<>();
    private long lastCommitNanos;

    OffsetCommits(Consumer<?, ?> consumer, java.time.Duration interval) {
        this.consumer = consumer;
        this.intervalNanos = interval.toNanos();
    }

    /** True when the commit interval has passed since the last commit. */
    boolean due(long nowNanos) {
        return nowNanos - lastCommitNanos >= intervalNanos;
    }

    /**
     * Commits the given positions (partition → the offset a commit may name), leaving out those already committed.
     * {@code sync} waits for the broker, as a revocation or the loop's end must.
     */
    void commit(Map<TopicPartition, Long> positions, boolean sync) {
        lastCommitNanos = System.nanoTime();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        positions.forEach((tp, offset) -> {
            if (!offset.equals(committed.get(tp))) {
                offsets.put(tp, new OffsetAndMetadata(offset));
            }
        });
        if (offsets.isEmpty()) {
            return;
        }
        try {
            if (sync) {
                consumer.commitSync(offsets);
                offsets.forEach((tp, o) -> committed.put(tp, o.offset()));
            } else {
                consumer.commitAsync(offsets, (done, error) -> {
                    if (error != null) {
                        log.warn("offset commit failed (the next one covers it): {}", error.toString());
                    } else {
                        done.forEach((tp, o) -> committed.put(tp, o.offset()));
                    }
                });
            }
        } catch (RuntimeException e) {
            log.warn("offset commit failed: {}", e.toString());
        }
    }

    /** Forgets what was committed for partitions given up: a later owner of them may have moved their position. */
    void forget(Collection<TopicPartition> partitions) {
        partitions.forEach(committed::remove);
    }
}
