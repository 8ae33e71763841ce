package io.tidemark.bucketprocessor;

import io.tidemark.config.TidemarkConfig;
import java.time.Duration;

/**
 * The bucket processor's settings, read once from the configuration registry.
 *
 * @param transactionTimeout the producer's {@code transaction.timeout.ms} (Kafka's default unless
 *                           {@code kafka.producer.transaction.timeout.ms} sets it)
 */
public record BucketProcessorSettings(int pageSize, int tasksPerTransaction, Duration retryBackoffMax,
                                      int faultMaxAttempts, Duration transactionMax, Duration transactionTimeout) {

    /** Kafka's producer default for {@code transaction.timeout.ms}. */
    static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofMinutes(1);

    public static BucketProcessorSettings from(TidemarkConfig config) {
        Object timeout = config.producerProperties().get("transaction.timeout.ms");
        return new BucketProcessorSettings(config.getInt(TidemarkConfig.BUCKET_PROCESSOR_PAGE_SIZE),
                config.getInt(TidemarkConfig.BUCKET_PROCESSOR_TASKS_PER_TRANSACTION),
                config.millis(TidemarkConfig.BUCKET_PROCESSOR_RETRY_BACKOFF_MAX_MS),
                config.getInt(TidemarkConfig.BUCKET_PROCESSOR_FAULT_MAX_ATTEMPTS),
                config.millis(TidemarkConfig.BUCKET_PROCESSOR_TRANSACTION_MAX_MS),
                timeout == null ? DEFAULT_TRANSACTION_TIMEOUT : Duration.ofMillis(Long.parseLong(timeout.toString())));
    }

    /** How long a transaction takes pages for: the setting, and never more than a quarter of its timeout. */
    Duration transactionBound() {
        Duration quarter = transactionTimeout.dividedBy(4);
        return transactionMax.compareTo(quarter) < 0 ? transactionMax : quarter;
    }
}
