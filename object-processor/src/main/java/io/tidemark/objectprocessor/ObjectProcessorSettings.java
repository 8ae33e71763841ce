package io.tidemark.objectprocessor;

import io.tidemark.config.ConfigContribution;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.seaweed.client.SeaweedCheck;
import java.time.Duration;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * The object processor's settings, read once from the configuration registry.
 *
 * @param deletesPerSecond      the whole group's rate; {@link Double#POSITIVE_INFINITY} for no limit
 * @param retryLaterMaxAttempts calls made for a task answered RETRY_LATER before it is parked
 * @param faultMaxAttempts      attempts at a task whose calls the server failed on before it is parked
 * @param rulesMaxAge           how old a bucket's rules may be when a task is checked against them
 */
public record ObjectProcessorSettings(double deletesPerSecond, int maxInFlight, int maxBuffered,
        int retryLaterMaxAttempts,
                                int faultMaxAttempts, Duration retryBackoffInitial, Duration retryBackoffMax,
                                Duration transportBackoffInitial, Duration transportBackoffMax,
                                Duration commitInterval, Duration rulesMaxAge, Duration shutdownTimeout) {

    public static final String DELETES_PER_SECOND = "object-processor.deletes.per.second";
    public static final String MAX_IN_FLIGHT = "object-processor.max.in.flight";
    public static final String MAX_BUFFERED = "object-processor.max.buffered";
    public static final String RETRY_LATER_MAX_ATTEMPTS = "object-processor.retry-later.max.attempts";
    public static final String RETRY_BACKOFF_INITIAL_MS = "object-processor.retry.backoff.initial.ms";
    public static final String RETRY_BACKOFF_MAX_MS = "object-processor.retry.backoff.max.ms";
    public static final String TRANSPORT_BACKOFF_INITIAL_MS = "object-processor.transport.backoff.initial.ms";
    public static final String TRANSPORT_BACKOFF_MAX_MS = "object-processor.transport.backoff.max.ms";
    public static final String COMMIT_INTERVAL_MS = "object-processor.commit.interval.ms";
    public static final String RULES_MAX_AGE_MS = "object-processor.rules.max.age.ms";
    public static final String FAULT_MAX_ATTEMPTS = "object-processor.fault.max.attempts";
    public static final String STATUS_INTERVAL_MS = "object-processor.status.interval.ms";
    public static final String CLUSTER_CHECK_INTERVAL_MS = "object-processor.cluster.check.interval.ms";
    public static final String DLQ_COUNT_INTERVAL_MS = "object-processor.dlq.count.interval.ms";

    /** How {@link #DELETES_PER_SECOND} says "no limit": spelled out, never a number that could mean "none". */
    public static final String UNLIMITED = "unlimited";

    public static ObjectProcessorSettings from(TidemarkConfig config) {
        return new ObjectProcessorSettings(deletesPerSecond(config.getString(DELETES_PER_SECOND)),
                config.getInt(ObjectProcessorSettings.MAX_IN_FLIGHT),
                config.getInt(ObjectProcessorSettings.MAX_BUFFERED),
                config.getInt(ObjectProcessorSettings.RETRY_LATER_MAX_ATTEMPTS),
                config.getInt(ObjectProcessorSettings.FAULT_MAX_ATTEMPTS),
                config.millis(ObjectProcessorSettings.RETRY_BACKOFF_INITIAL_MS),
                config.millis(ObjectProcessorSettings.RETRY_BACKOFF_MAX_MS),
                config.millis(ObjectProcessorSettings.TRANSPORT_BACKOFF_INITIAL_MS),
                config.millis(ObjectProcessorSettings.TRANSPORT_BACKOFF_MAX_MS),
                config.millis(ObjectProcessorSettings.COMMIT_INTERVAL_MS),
                config.millis(ObjectProcessorSettings.RULES_MAX_AGE_MS),
                config.shutdownTimeout());
    }

    /** A rate as the setting writes it: a number of deletes per second above 0, or {@link #UNLIMITED}. */
    static double deletesPerSecond(String value) {
        String v = value.trim();
        return v.equalsIgnoreCase(UNLIMITED) ? Double.POSITIVE_INFINITY : Double.parseDouble(v);
    }

    /**
     * The group's delete rate: above 0, or {@code unlimited}. 0 is refused rather than read as "no limit" (an operator
     * reaching for "stop" would get full speed) or as "no deletes" (tasks would pile up unseen): stopping is what
     * {@code tidemark pause} does.
     */
    static final class DeleteRate implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String v = value == null ? "" : ((String) value).trim();
            if (v.equalsIgnoreCase(UNLIMITED)) {
                return;
            }
            double rate;
            try {
                rate = Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new ConfigException(name, value, "must be a number of deletes per second above 0, or "
                        + UNLIMITED);
            }
            if (rate == 0) {
                throw new ConfigException(name, value, "0 would mean no deletes at all: to stop deleting, run "
                        + "`tidemark pause`; for no limit, write " + UNLIMITED);
            }
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw new ConfigException(name, value, "must be a number of deletes per second above 0, or "
                        + UNLIMITED);
            }
        }

        @Override
        public String toString() {
            return "a number above 0, or " + UNLIMITED;
        }
    }

    /** The {@code object-processor.*} settings, contributed to the configuration registry. */
    public static final class Keys implements ConfigContribution {

        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(DELETES_PER_SECOND, Type.STRING, "500", new DeleteRate(), Importance.HIGH,
                            "LifecycleDelete calls per second for the whole object-processor group (fractions "
                                    + "allowed); each instance takes the share of the partitions it is assigned. "
                                    + "`unlimited` lifts the limit. 0 is refused: to stop deletes, `tidemark pause`.")
                    .define(MAX_IN_FLIGHT, Type.INT, 64, Range.between(1, 10_000), Importance.MEDIUM,
                            "Most LifecycleDelete calls one object processor has outstanding at once.")
                    .define(MAX_BUFFERED, Type.INT, 10_000, Range.between(1, 10_000_000),
                            Importance.LOW, "Most tasks one object processor holds read but not finished; past it, it "
                                    + "stops fetching until some finish.")
                    .define(RETRY_LATER_MAX_ATTEMPTS, Type.INT, 10, Range.between(1, 1_000),
                            Importance.MEDIUM, "Calls made for a task the gateway keeps answering RETRY_LATER before "
                                    + "it is parked in the dead-letter topic. Later tasks of the same object wait "
                                    + "meanwhile.")
                    .define(RETRY_BACKOFF_INITIAL_MS, Type.LONG, 1_000L, Range.atLeast(1), Importance.LOW,
                            "First wait before calling again after RETRY_LATER; it doubles, with jitter, per attempt.")
                    .define(RETRY_BACKOFF_MAX_MS, Type.LONG, 300_000L, Range.atLeast(1), Importance.LOW,
                            "Longest wait between RETRY_LATER attempts.")
                    .define(TRANSPORT_BACKOFF_INITIAL_MS, Type.LONG, 200L, Range.atLeast(1),
                            Importance.LOW, "First wait before repeating a call that failed in transport (UNAVAILABLE, "
                                    + "deadline); it doubles, with jitter. Such calls are repeated until they get an "
                                    + "answer.")
                    .define(TRANSPORT_BACKOFF_MAX_MS, Type.LONG, 5_000L, Range.atLeast(1), Importance.LOW,
                            "Longest wait between repeats of a call that failed in transport.")
                    .define(COMMIT_INTERVAL_MS, Type.LONG, 1_000L, Range.atLeast(10), Importance.LOW,
                            "How often the object processor commits the offsets of finished tasks.")
                    .define(RULES_MAX_AGE_MS, Type.LONG, 1_000L, Range.between(0, 60_000),
                            Importance.MEDIUM, "Before each delete the object processor checks the task against the "
                                    + "bucket's lifecycle rules as the filer holds them now; a bucket's rules read "
                                    + "less than this long ago are reused. A rule removed, disabled or changed stops "
                                    + "deletes within this time; 0 reads the bucket entry before every delete.")
                    .define(FAULT_MAX_ATTEMPTS, Type.INT, 10, Range.between(1, 1_000),
                            Importance.LOW, "Attempts at a task whose calls the gateway or filer failed on (UNKNOWN, "
                                    + "INTERNAL, CANCELLED: how a restarting gateway's reset streams look) before it "
                                    + "is parked as RPC_ERROR; the waits between them are the RETRY_LATER backoff's. "
                                    + "Transport failures (UNAVAILABLE, deadlines) are retried until answered; "
                                    + "refusals (INVALID_ARGUMENT, PERMISSION_DENIED...) park at once, but for a "
                                    + "gateway's UNIMPLEMENTED: it lacks LifecycleDelete, and every task is held "
                                    + "until it serves it.")
                    .define(DLQ_COUNT_INTERVAL_MS, Type.LONG, 300_000L, Range.atLeast(1_000), Importance.LOW,
                            "How often each object processor counts the tasks parked in the dead-letter topic now "
                                    + "(tidemark_object_processor_dlq_parked). Each count reads the whole topic: a "
                                    + "large dead-letter topic and many instances want it less often.")
                    .define(STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                            "How often the object processor logs its status line.")
                    .define(CLUSTER_CHECK_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                            "How often a running object processor checks that the S3 gateway serves "
                                    + "LifecycleDelete (a call naming no object, which deletes nothing) and that "
                                    + "the filer answers; each second while either does not. It is ready only while "
                                    + "both do, refuses to start on a gateway without LifecycleDelete (SeaweedFS "
                                    + "older than " + SeaweedCheck.LIFECYCLE_DELETE_RELEASE + ") and holds every "
                                    + "task while one is found later. A task's "
                                    + "answered call counts as a check of the gateway.");
        }
    }
}
