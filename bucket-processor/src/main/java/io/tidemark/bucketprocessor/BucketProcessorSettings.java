package io.tidemark.bucketprocessor;

import io.tidemark.config.TidemarkConfig;
import java.time.Duration;

/** The bucket processor's settings, read once from the configuration registry. */
public record BucketProcessorSettings(int pageSize, int tasksPerTransaction, Duration retryBackoffMax) {

    public static BucketProcessorSettings from(TidemarkConfig config) {
        return new BucketProcessorSettings(config.getInt(TidemarkConfig.BUCKET_PROCESSOR_PAGE_SIZE),
                config.getInt(TidemarkConfig.BUCKET_PROCESSOR_TASKS_PER_TRANSACTION),
                config.millis(TidemarkConfig.BUCKET_PROCESSOR_RETRY_BACKOFF_MAX_MS));
    }

    /** The consumer group every instance joins: what operators watch for lag. */
    public static String groupId(TidemarkConfig config) {
        return config.topicPrefix() + "bucket-processor";
    }
}
