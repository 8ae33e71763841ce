package io.tidemark.objectprocessor;

import io.tidemark.config.ConfigContribution;
import io.tidemark.config.TidemarkConfig;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigException;

/**
 * The service level of deletes against their due instants (docs/object-processor.md, "Lateness").
 *
 * @param onTime    a delete answered within this long of its due instant is on time
 * @param objective the share of deletes that are to be on time
 * @param max       no delete is to be answered later than this after its due instant
 * @param buckets   buckets whose lateness is labelled by name; every other bucket's is labelled {@link #OTHER}
 */
public record LatenessSettings(Duration onTime, double objective, Duration max, Set<String> buckets) {

    public static final String ON_TIME_SECONDS = "object-processor.lateness.slo.seconds";
    public static final String OBJECTIVE = "object-processor.lateness.slo.objective";
    public static final String MAX_SECONDS = "object-processor.lateness.max.seconds";
    public static final String BUCKETS = "object-processor.lateness.buckets";

    /** The label of every bucket not named in {@link #BUCKETS}: no S3 bucket name has an underscore. */
    public static final String OTHER = "_other";

    public LatenessSettings {
        if (max.compareTo(onTime) <= 0) {
            throw new ConfigException(MAX_SECONDS, max.toSeconds(), "must be above " + ON_TIME_SECONDS + " ("
                    + onTime.toSeconds() + ")");
        }
        buckets = Set.copyOf(buckets);
    }

    public static LatenessSettings from(TidemarkConfig config) {
        List<String> named = config.getList(BUCKETS);
        return new LatenessSettings(Duration.ofSeconds(config.getLong(ON_TIME_SECONDS)), config.getDouble(OBJECTIVE),
                Duration.ofSeconds(config.getLong(MAX_SECONDS)), new TreeSet<>(named.stream().map(String::trim)
                .filter(b -> !b.isEmpty()).toList()));
    }

    /** The bucket label of {@code bucket}: its name when named, else {@link #OTHER}, so the labels stay bounded. */
    String label(String bucket) {
        return bucket != null && buckets.contains(bucket) ? bucket : OTHER;
    }

    /** The {@code object-processor.lateness.*} settings, contributed to the configuration registry. */
    public static final class Keys implements ConfigContribution {

        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(ON_TIME_SECONDS, Type.LONG, 300L, Range.atLeast(1), Importance.MEDIUM,
                            "A delete the gateway answers within this many seconds of its due instant (on the "
                                    + "filer's clock) is on time; the lateness objective counts against it.")
                    .define(OBJECTIVE, Type.DOUBLE, 0.99, Range.between(0.5, 0.99999), Importance.MEDIUM,
                            "The share of the timers' deletes to be on time; exported as "
                                    + "tidemark_object_processor_slo_objective, which the burn-rate alert reads.")
                    .define(MAX_SECONDS, Type.LONG, 86_400L, Range.atLeast(2), Importance.MEDIUM,
                            "No delete is to be answered later than this many seconds after its due instant; one "
                                    + "that is counts as beyond the maximum, and TidemarkDeleteBeyondMaxLateness "
                                    + "fires. Above " + ON_TIME_SECONDS + ".")
                    .define(BUCKETS, Type.LIST, "", Importance.LOW,
                            "Buckets whose lateness histogram carries their name in the bucket label; every other "
                                    + "bucket is labelled " + OTHER + ", so the number of series stays bounded.");
        }
    }
}
