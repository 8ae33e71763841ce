package io.tidemark.populator;

import io.tidemark.config.ConfigContribution;
import io.tidemark.config.TidemarkConfig;
import java.time.Duration;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef;

/**
 * How the tailer batches, reconnects and commits; read from the {@code populator.*} settings.
 *
 * @param coldStartOverlap     how far before the enumeration a cold start subscribes, against clock skew
 * @param coldStartChunk       most buckets a cold start enumerates in one transaction
 * @param transactionTimeout   the producer's {@code transaction.timeout.ms}: a transaction open longer than this
 *                             has been aborted by the coordinator, whatever error says so
 * @param registryReconcile    how often the registry is compared with the published configurations
 * @param gapRecheck           how often an undecided meta-log gap check is tried again
 * @param filerHoldMax         with several filers: how long a filer that sends nothing may hold the merge back
 * @param filerRemembered      with several filers: how many released events are remembered to recognise copies
 * @param filerRetire          with several filers: a filer not heard from for this long loses its cursor
 * @param filerDiscovery       with several filers: how often the list of filers is read again
 * @param filerMaxClockSkew    with several filers: how far their clocks may disagree and their events still be
 *                             published in the order they happened
 * @param filerFlushInterval   with several filers: how often each filer flushes its meta-log to the log files
 */
public record PopulatorSettings(int batchMaxEvents, Duration batchMaxWait, Duration streamIdleTimeout,
                             Duration maxBackoff, Duration coldStartOverlap, Duration kafkaTimeout,
                             int coldStartChunk, Duration transactionTimeout, Duration registryReconcile,
                             Duration gapRecheck, Duration filerHoldMax, int filerRemembered, Duration filerRetire,
                             Duration filerDiscovery, Duration filerMaxClockSkew, Duration filerFlushInterval) {

    public static final String BATCH_MAX_EVENTS = "populator.batch.max.events";
    public static final String BATCH_MAX_MS = "populator.batch.max.ms";
    public static final String STREAM_IDLE_TIMEOUT_MS = "populator.stream.idle.timeout.ms";
    public static final String RETRY_BACKOFF_MAX_MS = "populator.retry.backoff.max.ms";
    public static final String COLD_START_OVERLAP_MS = "populator.cold-start.overlap.ms";
    public static final String STATUS_INTERVAL_MS = "populator.status.interval.ms";
    public static final String RECORD_MAX_BYTES = "populator.record.max.bytes";
    public static final String COLD_START_CHUNK_BUCKETS = "populator.cold-start.chunk.buckets";
    public static final String REGISTRY_RECONCILE_MS = "populator.registry.reconcile.ms";
    public static final String GAP_RECHECK_MS = "populator.gap.recheck.ms";
    public static final String FILERS_HOLD_MAX_MS = "populator.filers.hold.max.ms";
    public static final String FILERS_REMEMBERED_EVENTS = "populator.filers.remembered.events";
    public static final String FILERS_RETIRE_MS = "populator.filers.retire.ms";
    public static final String FILERS_DISCOVERY_MS = "populator.filers.discovery.ms";
    public static final String FILERS_MAX_CLOCK_SKEW_MS = "populator.filers.max.clock.skew.ms";
    public static final String FILERS_FLUSH_INTERVAL_MS = "populator.filers.flush.interval.ms";

    /** The transaction timeout the populator's producer is given unless {@code kafka.producer.*} says otherwise. */
    static final Duration DEFAULT_TRANSACTION_TIMEOUT = Duration.ofSeconds(60);

    public static PopulatorSettings from(TidemarkConfig config) {
        Object timeout = config.producerProperties().get(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG);
        return new PopulatorSettings(config.getInt(PopulatorSettings.BATCH_MAX_EVENTS),
                config.millis(PopulatorSettings.BATCH_MAX_MS),
                config.millis(PopulatorSettings.STREAM_IDLE_TIMEOUT_MS),
                config.millis(PopulatorSettings.RETRY_BACKOFF_MAX_MS),
                config.millis(PopulatorSettings.COLD_START_OVERLAP_MS),
                Duration.ofSeconds(60),
                config.getInt(PopulatorSettings.COLD_START_CHUNK_BUCKETS),
                timeout == null ? DEFAULT_TRANSACTION_TIMEOUT : Duration.ofMillis(Long.parseLong(timeout.toString())),
                config.millis(PopulatorSettings.REGISTRY_RECONCILE_MS),
                config.millis(PopulatorSettings.GAP_RECHECK_MS),
                config.millis(FILERS_HOLD_MAX_MS),
                config.getInt(FILERS_REMEMBERED_EVENTS),
                config.millis(FILERS_RETIRE_MS),
                config.millis(FILERS_DISCOVERY_MS),
                config.millis(FILERS_MAX_CLOCK_SKEW_MS),
                config.millis(FILERS_FLUSH_INTERVAL_MS));
    }



    /** The longest a cold start keeps one transaction open: well inside the coordinator's timeout. */
    Duration coldStartChunkTime() {
        return transactionTimeout.dividedBy(4);
    }

    /** The {@code populator.*} settings, contributed to the configuration registry. */
    public static final class Keys implements ConfigContribution {

        @Override
        public void define(ConfigDef definition) {
            definition
                    .define(BATCH_MAX_EVENTS, Type.INT, 5_000, Range.between(1, 1_000_000), Importance.LOW,
                            "Most filer events the populator publishes in one Kafka transaction.")
                    .define(BATCH_MAX_MS, Type.LONG, 100L, Range.between(1, 60_000), Importance.LOW,
                            "Longest time a populator batch gathers events before its transaction commits.")
                    .define(STREAM_IDLE_TIMEOUT_MS, Type.LONG, 60_000L, Range.atLeast(100), Importance.LOW,
                            "The populator reconnects to the filer when its stream brings neither an event nor a "
                                    + "heartbeat for this long.")
                    .define(RETRY_BACKOFF_MAX_MS, Type.LONG, 10_000L, Range.atLeast(10), Importance.LOW,
                            "Cap of the populator's exponential backoff between filer reconnects and between retries "
                                    + "after a Kafka or ZooKeeper error.")
                    .define(COLD_START_OVERLAP_MS, Type.LONG, 10_000L, Range.atLeast(0), Importance.LOW,
                            "On a cold start the populator subscribes from this long before its bucket enumeration "
                                    + "began (on the filer's clock), a margin so that no event of the enumeration is "
                                    + "skipped; events in the overlap are published once like any other.")
                    .define(COLD_START_CHUNK_BUCKETS, Type.INT, 2_000, Range.between(1, 1_000_000),
                            Importance.LOW, "A cold start commits its bucket enumeration in transactions of at most "
                                    + "this many buckets (and at most a quarter of the producer's "
                                    + "transaction.timeout.ms), each with a checkpoint naming the last bucket "
                                    + "enumerated, so any number of buckets fits and an interrupted cold start resumes "
                                    + "where it stopped.")
                    .define(REGISTRY_RECONCILE_MS, Type.LONG, 300_000L, Range.atLeast(100), Importance.LOW,
                            "How often the leading populator compares the ZooKeeper bucket registry with the "
                                    + "configurations it has published and repairs any difference (besides at the "
                                    + "start of each leadership term).")
                    .define(GAP_RECHECK_MS, Type.LONG, 10_000L, Range.atLeast(100), Importance.LOW,
                            "How often the leading populator looks again for a meta-log gap it could not decide at its "
                                    + "resume or after a reconnect: while the filer has no meta-log file under "
                                    + "/topics/.system/log yet (a log purged whole) or does not answer.")
                    .define(FILERS_HOLD_MAX_MS, Type.LONG, 2_000L, Range.atLeast(10), Importance.LOW,
                            "With several filers (filer.addresses, filer.master.address): events are published in "
                                    + "timestamp order once every filer has sent one stamped later; a filer that "
                                    + "sends nothing for this long (idle, or gone) holds the others back only to the "
                                    + "present less this much, and an event it sends later stamped before what was "
                                    + "published meanwhile is published at once and counted late. The most a quiet "
                                    + "filer delays the others' events.")
                    .define(FILERS_REMEMBERED_EVENTS, Type.INT, 200_000, Range.between(1, 100_000_000),
                            Importance.LOW, "With several filers: how many published events are remembered (by "
                                    + "stamp and content) so that a copy of one — a filer catching up from the shared "
                                    + "log files returns its peers' events too — is recognised and left out.")
                    .define(FILERS_RETIRE_MS, Type.LONG, 7L * 24 * 3600 * 1000, Range.atLeast(1_000),
                            Importance.LOW, "With several filers: a filer not heard from for this long is retired: "
                                    + "its cursor is dropped (logged and counted) and, should it come back, it is "
                                    + "tailed from where the others are. Until then it keeps its cursor and is resumed "
                                    + "where it stopped when it returns.")
                    .define(FILERS_DISCOVERY_MS, Type.LONG, 1_000L, Range.atLeast(100), Importance.LOW,
                            "With several filers: how often the leading populator asks the master "
                                    + "(filer.master.address) which filers the cluster has, to tail one that joined. "
                                    + "Keep it below populator.filers.hold.max.ms, so that a new filer's first "
                                    + "events are not published late.")
                    .define(FILERS_MAX_CLOCK_SKEW_MS, Type.LONG, 500L, Range.atLeast(0), Importance.LOW,
                            "With several filers: how far apart their clocks may be. Events are published in "
                                    + "timestamp order once every filer has passed them by this much, and within "
                                    + "it, an event that changes an entry another filer's event wrote (a DELETE "
                                    + "through one filer of an object PUT through another) is published after it "
                                    + "whatever their timestamps. Adds this much to the populator's delay.")
                    .define(FILERS_FLUSH_INTERVAL_MS, Type.LONG, 60_000L, Range.atLeast(100), Importance.LOW,
                            "With several filers: how often each filer flushes its meta-log to the shared log "
                                    + "files (SeaweedFS: once a minute). A filer serves a catch-up from the files first "
                                    + "and then from memory at the last timestamp the files gave, across every "
                                    + "filer's files: its own events not flushed yet and stamped before a peer's "
                                    + "flushed ones are never sent. So after each (re)connection to a filer the span "
                                    + "its stream may have skipped (one interval before the connection up to it) is "
                                    + "read again once flushed: this long plus populator.filers.max.clock.skew.ms "
                                    + "after the connection, or as soon as the filer reports it flushed "
                                    + "(flushed_ts_ns, SeaweedFS 4.43 and later). Copies of what was published are "
                                    + "left out (populator.filers.remembered.events must hold that span); what the "
                                    + "stream skipped is published, late.")
                    .define(STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                            "How often the populator logs its status line.")
                    .define(RECORD_MAX_BYTES, Type.INT, 1_000_000, Range.between(10_000, 100_000_000),
                            Importance.LOW, "A filer event whose meta-log record is larger than this is published "
                                    + "without its large attributes (lifecycle XML, inline content) and flagged "
                                    + "slimmed; one that cannot be made that small is logged, counted and left out. "
                                    + "Keep it below the brokers' message.max.bytes.");
        }
    }
}
