package io.tidemark.populator;

import io.tidemark.config.TidemarkConfig;
import java.time.Duration;
import org.apache.kafka.clients.producer.ProducerConfig;

/**
 * How the tailer batches, reconnects and commits; read from the {@code populator.*} settings.
 *
 * @param coldStartOverlap     how far before the enumeration a cold start subscribes, against clock skew
 * @param coldStartChunk       most buckets a cold start enumerates in one transaction
 * @param transactionTimeout   the producer's {@code transaction.timeout.ms}: a transaction open longer than this
 *                             has been aborted by the coordinator, whatever error says so
 * @param registryReconcile    how often the registry is compared with the published configurations
 * @param gapRecheck           how often an undecided meta-log gap check is tried again
 */
public record PopulatorSettings(int batchMaxEvents, Duration batchMaxWait, Duration streamIdleTimeout,
                             Duration maxBackoff, Duration coldStartOverlap, Duration kafkaTimeout,
                             int coldStartChunk, Duration transactionTimeout, Duration registryReconcile,
                             Duration gapRecheck) {

    /** The transaction timeout the populator's producer is given unless {@code kafka.producer.*} says otherwise. */
    static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofSeconds(60);

    public static PopulatorSettings from(TidemarkConfig config) {
        Object timeout = config.producerProperties().get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        return new PopulatorSettings(config.getInt(TidemarkConfig.POPULATOR_BATCH_MAX_EVENTS),
                config.millis(TidemarkConfig.POPULATOR_BATCH_MAX_MS),
                config.millis(TidemarkConfig.POPULATOR_STREAM_IDLE_TIMEOUT_MS),
                config.millis(TidemarkConfig.POPULATOR_RETRY_BACKOFF_MAX_MS),
                config.millis(TidemarkConfig.POPULATOR_COLD_START_OVERLAP_MS),
                Duration.ofSeconds(60),
                config.getInt(TidemarkConfig.POPULATOR_COLD_START_CHUNK_BUCKETS),
                timeout == null ? DEFAULT_TRANSACTION_TIMEOUT : Duration.ofMillis(Long.parseLong(timeout.toString())),
                config.millis(TidemarkConfig.POPULATOR_REGISTRY_RECONCILE_MS),
                config.millis(TidemarkConfig.POPULATOR_GAP_RECHECK_MS));
    }

    /** The longest a cold start keeps one transaction open: well inside the coordinator's timeout. */
    Duration coldStartChunkTime() {
        return transactionTimeout.dividedBy(4);
    }
}
