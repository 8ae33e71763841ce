package io.tidemark.bucketprocessor;

import io.tidemark.config.ConfigContribution;
import io.tidemark.config.TidemarkConfig;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/**
 * The bucket processor's settings, read once from the configuration registry.
 *
 * @param transactionTimeout the producer's {@code transaction.timeout.ms} (Kafka's default unless
 *                           {@code kafka.producer.transaction.timeout.ms} sets it)
 */
public record BucketProcessorSettings(int pageSize, int tasksPerTransaction, Duration retryBackoffMax,
                                      int faultMaxAttempts, Duration transactionMax, Duration transactionTimeout) {

    public static final String PAGE_SIZE = "bucket-processor.page.size";
    public static final String TASKS_PER_TRANSACTION = "bucket-processor.tasks.per.transaction";
    public static final String RETRY_BACKOFF_MAX_MS = "bucket-processor.retry.backoff.max.ms";
    public static final String FAULT_MAX_ATTEMPTS = "bucket-processor.fault.max.attempts";
    public static final String TRANSACTION_MAX_MS = "bucket-processor.transaction.max.ms";
    public static final String STATUS_INTERVAL_MS = "bucket-processor.status.interval.ms";

    /** Kafka's producer default for {@code transaction.timeout.ms}. */
    static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofMinutes(1);

    public static BucketProcessorSettings from(TidemarkConfig config) {
        Object timeout = config.producerProperties().get("transaction.timeout.ms");
        return new BucketProcessorSettings(config.getInt(BucketProcessorSettings.PAGE_SIZE),
                config.getInt(BucketProcessorSettings.TASKS_PER_TRANSACTION),
                config.millis(BucketProcessorSettings.RETRY_BACKOFF_MAX_MS),
                config.getInt(BucketProcessorSettings.FAULT_MAX_ATTEMPTS),
                config.millis(BucketProcessorSettings.TRANSACTION_MAX_MS),
                timeout == null ? DEFAULT_TRANSACTION_TIMEOUT : Duration.ofMillis(Long.parseLong(timeout.toString())));
    }

    /** How long a transaction takes pages for: the setting, and never more than a quarter of its timeout. */
    Duration transactionBound() {
        Duration quarter = transactionTimeout.dividedBy(4);
        return transactionMax.compareTo(quarter) < 0 ? transactionMax : quarter;
    }

    /** The {@code bucket-processor.*} settings, contributed to the configuration registry. */
    public static final class Keys implements ConfigContribution {

        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(PAGE_SIZE, Type.INT, 1_000, Range.between(1, 100_000), Importance.MEDIUM,
                            "Entries one bucket task lists and evaluates before it hands the rest of the walk to a "
                                    + "continuation task.")
                    .define(TASKS_PER_TRANSACTION, Type.INT, 4, Range.between(1, 1_000),
                            Importance.LOW, "Most bucket tasks (pages) one Kafka transaction of the bucket processor "
                                    + "covers.")
                    .define(RETRY_BACKOFF_MAX_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.LOW,
                            "Longest wait before a page that failed on the filer or on Kafka is tried again; the wait "
                                    + "starts at 200 ms and doubles.")
                    .define(FAULT_MAX_ATTEMPTS, Type.INT, 5, Range.between(1, 1_000), Importance.LOW,
                            "Attempts at a page the filer fails on (UNKNOWN, INTERNAL, CANCELLED: how a filer reports "
                                    + "its own errors), with the backoff between them, before its walk stops as "
                                    + "failed; the next conductor pass resumes it from that page. Transport failures "
                                    + "(UNAVAILABLE, deadlines) are retried without limit; refusals stop the walk at "
                                    + "once.")
                    .define(TRANSACTION_MAX_MS, Type.LONG, 15_000L, Range.atLeast(100), Importance.LOW,
                            "How long one bucket-processor transaction takes pages for (at most a quarter of the "
                                    + "producer's transaction.timeout.ms): pages past it go into the next transaction, "
                                    + "so a slow filer never runs a transaction into the coordinator's timeout.")
                    .define(STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                            "How often the bucket processor logs its status line.");
        }
    }
}
