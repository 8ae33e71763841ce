package io.tidemark.objectprocessor;

import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This instance's share of the group's delete rate: the group's rate times the share of the topic's partitions it
 * holds. Instances do not talk to each other; the partition assignment is what they share, so the rates of a group
 * add up to the group's rate whatever the number of instances.
 */
final class RateShare {

    private static final Logger log = LoggerFactory.getLogger(RateShare.class);

    private final double groupRate;
    private final DeleteCaller caller;
    private final ObjectProcessorMetrics metrics;
    private int topicPartitions;

    /** @param groupRate the group's deletes per second; {@link Double#POSITIVE_INFINITY} (unlimited) lifts the limit */
    RateShare(double groupRate, DeleteCaller caller, ObjectProcessorMetrics metrics) {
        this.groupRate = groupRate;
        this.caller = caller;
        this.metrics = metrics;
    }

    /** The number of partitions of the task topic, read once when the loop starts. */
    void topicPartitions(int count) {
        topicPartitions = count;
    }

    /** Sets the rate for {@code held} partitions; with none held the last rate stays (it is not used). */
    void held(int held) {
        if (Double.isInfinite(groupRate)) {
            caller.rate(0);   // the caller's own "no limiter"
        } else if (held > 0) {
            caller.rate(of(groupRate, held, topicPartitions));
            log.info("rate share: {} of {} deletes/s for {} of {} partitions",
                    String.format(Locale.ROOT, "%.2f", caller.rate()), groupRate, held, topicPartitions);
        }
        // Published after the rate, so whoever sees the new partition count sees the rate that goes with it.
        metrics.partitions(held);
    }

    /**
     * The share for {@code held} of {@code total} partitions; a total smaller than what is held (partitions added
     * since the loop started) counts as what is held.
     */
    static double of(double groupRate, int held, int total) {
        return groupRate * held / Math.max(total, held);
    }
}
