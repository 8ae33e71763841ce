package io.tidemark.conductor;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.TopicRegistry;
import java.time.Duration;
import java.util.List;

/**
 * The conductor's settings, read once from the configuration registry.
 *
 * @param maxBacklog     the most records a gated group may have left before a pass is skipped; negative: no gate
 * @param lockWait       how long a pass waits for the walker lock another conductor holds
 * @param walkStaleAfter how long a walk may go without progress before a pass seeds it again
 */
public record ConductorSettings(long maxBacklog, Duration lockWait, Duration walkStaleAfter) {

    public static ConductorSettings from(TidemarkConfig config) {
        return new ConductorSettings(config.getLong(TidemarkConfig.CONDUCTOR_MAX_BACKLOG),
                config.millis(TidemarkConfig.CONDUCTOR_LOCK_WAIT_MS),
                config.millis(TidemarkConfig.CONDUCTOR_WALK_STALE_MS));
    }

    /** The groups whose backlog gates a pass: the walker's own consumers and the deletes they feed. */
    static List<ConductorPass.Gate> gates(TidemarkConfig config, TopicRegistry topics) {
        ConsumerGroups groups = ConsumerGroups.from(config);
        return List.of(new ConductorPass.Gate(groups.bucketProcessor(), topics.bucketTasks().name()),
                new ConductorPass.Gate(groups.objectProcessor(), topics.objectTasks().name()));
    }
}
