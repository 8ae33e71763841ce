package io.tidemark.populator;

import io.tidemark.config.TidemarkConfig;
import java.time.Duration;

/**
 * How the tailer batches and reconnects; read from the {@code populator.*} settings.
 *
 * @param coldStartOverlap how far before the enumeration a cold start subscribes, against clock skew
 */
public record TailerSettings(int batchMaxEvents, Duration batchMaxWait, Duration streamIdleTimeout,
                             Duration maxBackoff, Duration coldStartOverlap, Duration kafkaTimeout) {

    public static TailerSettings from(TidemarkConfig config) {
        return new TailerSettings(config.getInt(TidemarkConfig.POPULATOR_BATCH_MAX_EVENTS),
                config.millis(TidemarkConfig.POPULATOR_BATCH_MAX_MS),
                config.millis(TidemarkConfig.POPULATOR_STREAM_IDLE_TIMEOUT_MS),
                config.millis(TidemarkConfig.POPULATOR_RETRY_BACKOFF_MAX_MS),
                config.millis(TidemarkConfig.POPULATOR_COLD_START_OVERLAP_MS),
                Duration.ofSeconds(60));
    }
}
