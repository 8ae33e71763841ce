package io.tidemark.objectprocessor;

import io.tidemark.config.TidemarkConfig;
import java.time.Duration;

/**
 * The object processor's settings, read once from the configuration registry.
 *
 * @param deletesPerSecond      the whole group's rate; 0 for no limit
 * @param retryLaterMaxAttempts calls made for a task answered RETRY_LATER before it is parked
 * @param faultMaxAttempts      attempts at a task whose calls the server failed on before it is parked
 * @param rulesMaxAge           how old a bucket's rules may be when a task is checked against them
 */
public record ObjectProcessorSettings(double deletesPerSecond, int maxInFlight, int maxBuffered, int retryLaterMaxAttempts,
                                int faultMaxAttempts, Duration retryBackoffInitial, Duration retryBackoffMax,
                                Duration transportBackoffInitial, Duration transportBackoffMax,
                                Duration commitInterval, Duration rulesMaxAge, Duration shutdownTimeout) {

    public static ObjectProcessorSettings from(TidemarkConfig config) {
        return new ObjectProcessorSettings(config.getDouble(TidemarkConfig.OBJECT_PROCESSOR_DELETES_PER_SECOND),
                config.getInt(TidemarkConfig.OBJECT_PROCESSOR_MAX_IN_FLIGHT),
                config.getInt(TidemarkConfig.OBJECT_PROCESSOR_MAX_BUFFERED),
                config.getInt(TidemarkConfig.OBJECT_PROCESSOR_RETRY_LATER_MAX_ATTEMPTS),
                config.getInt(TidemarkConfig.OBJECT_PROCESSOR_FAULT_MAX_ATTEMPTS),
                config.millis(TidemarkConfig.OBJECT_PROCESSOR_RETRY_BACKOFF_INITIAL_MS),
                config.millis(TidemarkConfig.OBJECT_PROCESSOR_RETRY_BACKOFF_MAX_MS),
                config.millis(TidemarkConfig.OBJECT_PROCESSOR_TRANSPORT_BACKOFF_INITIAL_MS),
                config.millis(TidemarkConfig.OBJECT_PROCESSOR_TRANSPORT_BACKOFF_MAX_MS),
                config.millis(TidemarkConfig.OBJECT_PROCESSOR_COMMIT_INTERVAL_MS),
                config.millis(TidemarkConfig.OBJECT_PROCESSOR_RULES_MAX_AGE_MS),
                config.shutdownTimeout());
    }
}
