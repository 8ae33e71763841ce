package io.tidemark.conductor;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.topics.TopicRegistry;
import java.util.List;

/** The conductor's settings, read once from the configuration registry. */
final class ConductorSettings {

    private ConductorSettings() {
    }

    static ConductorPass.Settings pass(TidemarkConfig config) {
        return new ConductorPass.Settings(config.getLong(TidemarkConfig.CONDUCTOR_MAX_BACKLOG),
                config.millis(TidemarkConfig.CONDUCTOR_LOCK_WAIT_MS),
                config.millis(TidemarkConfig.CONDUCTOR_WALK_STALE_MS));
    }

    /** The groups whose backlog gates a pass: the walker's own consumers and the deletes they feed. */
    static List<ConductorPass.Gate> gates(TidemarkConfig config, TopicRegistry topics) {
        String prefix = config.topicPrefix();
        return List.of(new ConductorPass.Gate(prefix + "bucket-processor", topics.bucketTasks().name()),
                new ConductorPass.Gate(prefix + "object-processor", topics.objectTasks().name()));
    }
}
