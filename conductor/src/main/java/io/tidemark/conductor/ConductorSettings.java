package io.tidemark.conductor;

import io.tidemark.config.ConfigContribution;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.TopicRegistry;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The conductor's settings, read once from the configuration registry.
 *
 * @param maxBacklog     the most records a gated group may have left before a pass is skipped; -1: no gate
 * @param lockWait       how long a pass waits for the walker lock another conductor holds
 * @param walkStaleAfter how long a walk may go without progress before a pass seeds it again
 */
public record ConductorSettings(long maxBacklog, Duration lockWait, Duration walkStaleAfter) {

    public static final String SCHEDULE = "conductor.schedule";
    public static final String MAX_BACKLOG = "conductor.max.backlog";
    public static final String LOCK_WAIT_MS = "conductor.lock.wait.ms";
    public static final String WALK_STALE_MS = "conductor.walk.stale.ms";

    public static ConductorSettings from(TidemarkConfig config) {
        return new ConductorSettings(config.getLong(ConductorSettings.MAX_BACKLOG),
                config.millis(ConductorSettings.LOCK_WAIT_MS),
                config.millis(ConductorSettings.WALK_STALE_MS));
    }

    /** The groups whose backlog gates a pass: the walker's own consumers and the deletes they feed. */
    static List<ConsumerGroups.Group> gates(TidemarkConfig config, TopicRegistry topics) {
        ConsumerGroups groups = ConsumerGroups.from(config);
        return List.of(groups.bucketProcessor(topics), groups.objectProcessor(topics));
    }

    /** A schedule that parses, refused at start rather than when the scheduled conductor first reads it. */
    static final class Cron implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            try {
                CronSchedule.parse(String.valueOf(value));
            } catch (IllegalArgumentException e) {
                throw new ConfigException(name, value, e.getMessage());
            }
        }

        @Override
        public String toString() {
            return "a five-field Unix cron expression";
        }
    }

    /** The {@code conductor.*} settings, contributed to the configuration registry. */
    public static final class Keys implements ConfigContribution {

        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(SCHEDULE, Type.STRING, "0 2 * * *", new Cron(), Importance.MEDIUM,
                            "When `tidemark conductor --schedule` runs walker passes: a five-field Unix cron "
                                    + "expression, evaluated in UTC.")
                    .define(MAX_BACKLOG, Type.LONG, 100_000L, Range.atLeast(-1), Importance.MEDIUM,
                            "A walker pass is skipped while the bucket-processor or object-processor group has more "
                                    + "unconsumed records than this (read from Kafka at the start of the pass); 0 "
                                    + "skips it while any record is left. -1 turns the gate off.")
                    .define(LOCK_WAIT_MS, Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
                            "How long a conductor waits for the walker lock before skipping its pass; 0 skips at once "
                                    + "when another conductor holds it.")
                    .define(WALK_STALE_MS, Type.LONG, 6L * 3_600_000L, Range.atLeast(1_000), Importance.LOW,
                            "A walk that finished no page for this long counts as stalled: the next pass resumes a "
                                    + "recovery walk from its last recorded page (in its own mode) and replaces a steady "
                                    + "walk with a new one; until then, a bucket whose walk is under way is not seeded "
                                    + "again.");
        }
    }
}
