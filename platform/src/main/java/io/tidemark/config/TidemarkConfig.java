package io.tidemark.config;

import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.seaweed.client.GrpcTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The settings every Tidemark command and service shares, declared once with type, default, validator and
 * documentation. Services add their own keys to {@link #definition()}. Settings under {@code kafka.},
 * {@code kafka.producer.}, {@code kafka.consumer.}, {@code kafka.streams.} and {@code kafka.admin.} that are not
 * declared here pass through to the Kafka clients.
 */
public class TidemarkConfig extends AbstractConfig {

    public static final String KAFKA_BOOTSTRAP_SERVERS = "kafka.bootstrap.servers";
    public static final String ZOOKEEPER_CONNECT = "zookeeper.connect";
    public static final String ZOOKEEPER_CHROOT = "zookeeper.chroot";
    public static final String ZOOKEEPER_SESSION_TIMEOUT_MS = "zookeeper.session.timeout.ms";
    public static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS = "zookeeper.connection.timeout.ms";
    public static final String ZOOKEEPER_AUTH_DIGEST = "zookeeper.auth.digest";
    public static final String FILER_ADDRESS = "filer.address";
    public static final String S3_GRPC_ADDRESS = "s3.grpc.address";
    public static final String GRPC_TLS_ENABLED = "grpc.tls.enabled";
    public static final String GRPC_TLS_CA_FILE = "grpc.tls.ca.file";
    public static final String GRPC_TLS_CERT_FILE = "grpc.tls.cert.file";
    public static final String GRPC_TLS_KEY_FILE = "grpc.tls.key.file";
    public static final String GRPC_DEADLINE_MS = "grpc.deadline.ms";
    public static final String TOPIC_PREFIX = "topic.prefix";
    public static final String TOPIC_REPLICATION_FACTOR = "topic.replication.factor";
    public static final String TOPIC_META_LOG_RETENTION_MS = "topic.meta-log.retention.ms";
    public static final String TOPIC_TASKS_RETENTION_MS = "topic.tasks.retention.ms";
    public static final String TOPIC_DLQ_RETENTION_MS = "topic.dlq.retention.ms";
    public static final String SHARD_BITS = "shard.bits";
    public static final String LIFECYCLE_DAY_SECONDS = "lifecycle.day.seconds";
    public static final String LIFECYCLE_DUE_POLICY = "lifecycle.due.policy";
    public static final String LIFECYCLE_VALIDATION_MODE = "lifecycle.validation.mode";
    public static final String MANAGEMENT_HOST = "management.host";
    public static final String MANAGEMENT_PORT = "management.port";
    public static final String SHUTDOWN_TIMEOUT_MS = "shutdown.timeout.ms";
    public static final String POPULATOR_BATCH_MAX_EVENTS = "populator.batch.max.events";
    public static final String POPULATOR_BATCH_MAX_MS = "populator.batch.max.ms";
    public static final String POPULATOR_STREAM_IDLE_TIMEOUT_MS = "populator.stream.idle.timeout.ms";
    public static final String POPULATOR_RETRY_BACKOFF_MAX_MS = "populator.retry.backoff.max.ms";
    public static final String POPULATOR_COLD_START_OVERLAP_MS = "populator.cold-start.overlap.ms";
    public static final String POPULATOR_STATUS_INTERVAL_MS = "populator.status.interval.ms";
    public static final String POPULATOR_RECORD_MAX_BYTES = "populator.record.max.bytes";
    public static final String POPULATOR_COLD_START_CHUNK_BUCKETS = "populator.cold-start.chunk.buckets";
    public static final String POPULATOR_REGISTRY_RECONCILE_MS = "populator.registry.reconcile.ms";
    public static final String POPULATOR_GAP_RECHECK_MS = "populator.gap.recheck.ms";
    public static final String REPLAY_PUNCTUATE_INTERVAL_MS = "replay-streams.punctuate.interval.ms";
    public static final String REPLAY_MAX_FIRED_PER_TICK = "replay-streams.max.fired.per.tick";
    public static final String REPLAY_MAX_FIRE_TIME_PER_TICK_MS = "replay-streams.max.fire.time.per.tick.ms";
    public static final String REPLAY_STATE_DIR = "replay-streams.state.dir";
    public static final String DATA_DIR = "data.dir";
    public static final String REPLAY_NUM_STREAM_THREADS = "replay-streams.num.stream.threads";
    public static final String REPLAY_STANDBY_REPLICAS = "replay-streams.standby.replicas";
    public static final String REPLAY_STATUS_INTERVAL_MS = "replay-streams.status.interval.ms";
    public static final String OBJECT_PROCESSOR_DELETES_PER_SECOND = "object-processor.deletes.per.second";
    public static final String OBJECT_PROCESSOR_MAX_IN_FLIGHT = "object-processor.max.in.flight";
    public static final String OBJECT_PROCESSOR_MAX_BUFFERED = "object-processor.max.buffered";
    public static final String OBJECT_PROCESSOR_RETRY_LATER_MAX_ATTEMPTS = "object-processor.retry-later.max.attempts";
    public static final String OBJECT_PROCESSOR_RETRY_BACKOFF_INITIAL_MS = "object-processor.retry.backoff.initial.ms";
    public static final String OBJECT_PROCESSOR_RETRY_BACKOFF_MAX_MS = "object-processor.retry.backoff.max.ms";
    public static final String OBJECT_PROCESSOR_TRANSPORT_BACKOFF_INITIAL_MS = "object-processor.transport.backoff.initial.ms";
    public static final String OBJECT_PROCESSOR_TRANSPORT_BACKOFF_MAX_MS = "object-processor.transport.backoff.max.ms";
    public static final String OBJECT_PROCESSOR_COMMIT_INTERVAL_MS = "object-processor.commit.interval.ms";
    public static final String OBJECT_PROCESSOR_RULES_MAX_AGE_MS = "object-processor.rules.max.age.ms";
    public static final String OBJECT_PROCESSOR_FAULT_MAX_ATTEMPTS = "object-processor.fault.max.attempts";
    public static final String OBJECT_PROCESSOR_STATUS_INTERVAL_MS = "object-processor.status.interval.ms";
    public static final String CONDUCTOR_SCHEDULE = "conductor.schedule";
    public static final String CONDUCTOR_MAX_BACKLOG = "conductor.max.backlog";
    public static final String CONDUCTOR_LOCK_WAIT_MS = "conductor.lock.wait.ms";
    public static final String CONDUCTOR_WALK_STALE_MS = "conductor.walk.stale.ms";
    public static final String BUCKET_PROCESSOR_PAGE_SIZE = "bucket-processor.page.size";
    public static final String BUCKET_PROCESSOR_TASKS_PER_TRANSACTION = "bucket-processor.tasks.per.transaction";
    public static final String BUCKET_PROCESSOR_RETRY_BACKOFF_MAX_MS = "bucket-processor.retry.backoff.max.ms";
    public static final String BUCKET_PROCESSOR_FAULT_MAX_ATTEMPTS = "bucket-processor.fault.max.attempts";
    public static final String BUCKET_PROCESSOR_TRANSACTION_MAX_MS = "bucket-processor.transaction.max.ms";
    public static final String BUCKET_PROCESSOR_STATUS_INTERVAL_MS = "bucket-processor.status.interval.ms";

    /** The prefix of every Tidemark environment variable. */
    public static final String ENV_PREFIX = "TIDEMARK_";

    public TidemarkConfig(Map<String, ?> values) {
        this(definition(), values);
    }

    protected TidemarkConfig(ConfigDef definition, Map<String, ?> values) {
        super(definition, values, false);
    }

    /** The common settings; a service defines its own on top of a fresh copy of this. */
    public static ConfigDef definition() {
        return new ConfigDef()
                .define(KAFKA_BOOTSTRAP_SERVERS, Type.LIST, "localhost:9092", Importance.HIGH,
                        "Kafka brokers to bootstrap from, host:port, comma-separated.")
                .define(ZOOKEEPER_CONNECT, Type.STRING, "localhost:2181", Importance.HIGH,
                        "ZooKeeper connect string, host:port, comma-separated.")
                .define(ZOOKEEPER_CHROOT, Type.STRING, "/tidemark", new AbsolutePath(), Importance.MEDIUM,
                        "The ZooKeeper path under which every Tidemark node lives.")
                .define(ZOOKEEPER_SESSION_TIMEOUT_MS, Type.INT, 30_000, Range.atLeast(1000), Importance.LOW,
                        "ZooKeeper session timeout; a leader that loses its session for longer steps down.")
                .define(ZOOKEEPER_CONNECTION_TIMEOUT_MS, Type.INT, 15_000, Range.atLeast(100), Importance.LOW,
                        "How long to wait for a ZooKeeper connection.")
                .define(ZOOKEEPER_AUTH_DIGEST, Type.PASSWORD, null, Importance.LOW,
                        "Digest authentication for ZooKeeper, as user:password; none when unset. When set, every node "
                                + "Tidemark creates (the chroot included) is readable by anyone but can be changed or "
                                + "deleted only with these credentials, so every Tidemark service sharing the chroot "
                                + "needs the same value; on a shared ZooKeeper, set it.")
                .define(FILER_ADDRESS, Type.STRING, "localhost:18888", Importance.HIGH,
                        "The SeaweedFS filer's gRPC address (filer port + 10000).")
                .define(S3_GRPC_ADDRESS, Type.STRING, "localhost:18333", Importance.HIGH,
                        "The SeaweedFS S3 gateway's gRPC address (S3 port + 10000), which serves LifecycleDelete.")
                .define(GRPC_TLS_ENABLED, Type.BOOLEAN, false, Importance.MEDIUM,
                        "Use TLS for the filer and S3 gRPC connections.")
                .define(GRPC_TLS_CA_FILE, Type.STRING, null, Importance.LOW,
                        "PEM file of the CAs to trust; the JDK's defaults when unset.")
                .define(GRPC_TLS_CERT_FILE, Type.STRING, null, Importance.LOW,
                        "PEM client certificate chain for mutual TLS.")
                .define(GRPC_TLS_KEY_FILE, Type.STRING, null, Importance.LOW,
                        "PEM PKCS#8 private key of the client certificate.")
                .define(GRPC_DEADLINE_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.LOW,
                        "Deadline of every unary gRPC call.")
                .define(TOPIC_PREFIX, Type.STRING, "tidemark.", Importance.MEDIUM,
                        "Prefix of every Tidemark topic name.")
                .define(TOPIC_REPLICATION_FACTOR, Type.SHORT, (short) -1, Range.between(-1, Short.MAX_VALUE),
                        Importance.MEDIUM, "Replication factor of new topics; -1 takes the broker's default.")
                .define(TOPIC_META_LOG_RETENTION_MS, Type.LONG, 7L * 24 * 3600 * 1000, Range.atLeast(-1),
                        Importance.LOW, "Retention of the meta-log topic; -1 keeps it forever. Timers live in "
                                + "changelogged state, so it need not outlast the longest rule.")
                .define(TOPIC_TASKS_RETENTION_MS, Type.LONG, 30L * 24 * 3600 * 1000, Range.atLeast(-1),
                        Importance.LOW, "Retention of the task topics (object-tasks, bucket-tasks) and of "
                                + "lifecycle-events; -1 keeps them forever. Far above any backlog a group should "
                                + "ever have: tasks deleted before they are processed are lost (the object processor "
                                + "logs, counts and alerts on it). Existing topics with a shorter retention are "
                                + "raised to it at start.")
                .define(TOPIC_DLQ_RETENTION_MS, Type.LONG, -1L, Range.atLeast(-1), Importance.LOW,
                        "Retention of the dead-letter topics. -1 (the default): parked tasks stay until "
                                + "`tidemark dlq replay` or `tidemark dlq purge` removes them; a positive value also "
                                + "drops them by age.")
                .define(SHARD_BITS, Type.INT, 4, Range.between(0, 16), Importance.MEDIUM,
                        "Shards are the top bits of SHA-256(bucket/key); 2^bits partitions for the sharded topics.")
                .define(LIFECYCLE_DAY_SECONDS, Type.LONG, 86_400L, Range.atLeast(1), Importance.LOW,
                        "Length of a lifecycle day in seconds; tests shrink it.")
                .define(LIFECYCLE_DUE_POLICY, Type.STRING, "aws", ValidString.in("aws", "exact"), Importance.MEDIUM,
                        "aws: due times rounded up to the next day boundary (00:00 UTC); exact: no rounding.")
                .define(LIFECYCLE_VALIDATION_MODE, Type.STRING, "aws", ValidString.in("aws", "seaweedfs"),
                        Importance.MEDIUM, "aws: lifecycle configurations are checked as S3 checks them; seaweedfs: "
                                + "also accepts what SeaweedFS's gateway accepts (NewerNoncurrentVersions without "
                                + "NoncurrentDays), so buckets with such a rule keep their rules. Every service must "
                                + "use the same mode.")
                .define(MANAGEMENT_HOST, Type.STRING, "0.0.0.0", Importance.LOW,
                        "Address of the management HTTP endpoint (/metrics, /healthz, /readyz).")
                .define(MANAGEMENT_PORT, Type.INT, 8080, Range.between(0, 65535), Importance.MEDIUM,
                        "Port of the management HTTP endpoint; 0 picks a free one.")
                .define(SHUTDOWN_TIMEOUT_MS, Type.LONG, 25_000L, Range.between(1000, 29_000), Importance.LOW,
                        "How long a stop may take in all, kept inside Kubernetes' 30 s grace period.")
                .define(POPULATOR_BATCH_MAX_EVENTS, Type.INT, 5_000, Range.between(1, 1_000_000), Importance.LOW,
                        "Most filer events the populator publishes in one Kafka transaction.")
                .define(POPULATOR_BATCH_MAX_MS, Type.LONG, 100L, Range.between(1, 60_000), Importance.LOW,
                        "Longest time a populator batch gathers events before its transaction commits.")
                .define(POPULATOR_STREAM_IDLE_TIMEOUT_MS, Type.LONG, 60_000L, Range.atLeast(100), Importance.LOW,
                        "The populator reconnects to the filer when its stream brings neither an event nor a "
                                + "heartbeat for this long.")
                .define(POPULATOR_RETRY_BACKOFF_MAX_MS, Type.LONG, 10_000L, Range.atLeast(10), Importance.LOW,
                        "Cap of the populator's exponential backoff between filer reconnects and between retries "
                                + "after a Kafka or ZooKeeper error.")
                .define(POPULATOR_COLD_START_OVERLAP_MS, Type.LONG, 10_000L, Range.atLeast(0), Importance.LOW,
                        "On a cold start the populator subscribes from this long before its bucket enumeration "
                                + "began, so clock skew between it and the filer cannot open a gap; events in the "
                                + "overlap are published once like any other.")
                .define(POPULATOR_COLD_START_CHUNK_BUCKETS, Type.INT, 2_000, Range.between(1, 1_000_000),
                        Importance.LOW, "A cold start commits its bucket enumeration in transactions of at most this "
                                + "many buckets (and at most a quarter of the producer's transaction.timeout.ms), "
                                + "each with a checkpoint naming the last bucket enumerated, so any number of "
                                + "buckets fits and an interrupted cold start resumes where it stopped.")
                .define(POPULATOR_REGISTRY_RECONCILE_MS, Type.LONG, 300_000L, Range.atLeast(100), Importance.LOW,
                        "How often the leading populator compares the ZooKeeper bucket registry with the "
                                + "configurations it has published and repairs any difference (besides at the start "
                                + "of each leadership term).")
                .define(POPULATOR_GAP_RECHECK_MS, Type.LONG, 10_000L, Range.atLeast(100), Importance.LOW,
                        "How often the leading populator looks again for a meta-log gap it could not decide at "
                                + "its resume or after a reconnect: while the filer has no meta-log file under "
                                + "/topics/.system/log yet (a log purged whole) or does not answer.")
                .define(POPULATOR_STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                        "How often the populator logs its status line.")
                .define(POPULATOR_RECORD_MAX_BYTES, Type.INT, 1_000_000, Range.between(10_000, 100_000_000),
                        Importance.LOW, "A filer event whose meta-log record is larger than this is published "
                                + "without its large attributes (lifecycle XML, inline content) and flagged slimmed; "
                                + "one that cannot be made that small is logged, counted and left out. Keep it below "
                                + "the brokers' message.max.bytes.")
                .define(REPLAY_PUNCTUATE_INTERVAL_MS, Type.LONG, 1_000L, Range.between(10, 3_600_000), Importance.MEDIUM,
                        "How often replay-streams looks for due timers (wall-clock time).")
                .define(REPLAY_MAX_FIRE_TIME_PER_TICK_MS, Type.LONG, 1_000L, Range.between(1, 60_000), Importance.LOW,
                        "Longest one stream thread spends firing timers per tick, shared evenly among its tasks "
                                + "(each fires at least one). All the tasks of a thread fire in one exactly-once "
                                + "transaction, which Kafka aborts past its timeout (10 s for Streams) and which "
                                + "hides the fired tasks from the object processor until it commits; what is left "
                                + "fires on catch-up ticks in the thread's next loops. A burst's first tick fires for "
                                + "25 ms at most, each catch-up tick for twice the one before up to this bound, so "
                                + "the first tasks are committed within milliseconds of falling due.")
                .define(REPLAY_MAX_FIRED_PER_TICK, Type.INT, 10_000, Range.between(1, 10_000_000), Importance.LOW,
                        "Most timers one stream task fires per tick, so a backlog cannot hold up its commits; the "
                                + "rest fire on the next ticks.")
                .define(DATA_DIR, Type.STRING, "tidemark-data", Importance.MEDIUM,
                        "Where services keep local state (relative paths from the working directory); deployments "
                                + "mount a volume here (the container image: /var/lib/tidemark). Never under /tmp, "
                                + "which the system may clean.")
                .define(REPLAY_STATE_DIR, Type.STRING, "", Importance.LOW, "Where replay-streams keeps its local "
                                + "state (RocksDB); empty: replay-streams under data.dir. It is a cache of the "
                                + "changelogs: lost, it is rebuilt from them; from another Kafka cluster or with a "
                                + "global store past its topic's end (a recreated topic), it is discarded and rebuilt "
                                + "at start.")
                .define(REPLAY_NUM_STREAM_THREADS, Type.INT, 1, Range.between(1, 64), Importance.LOW,
                        "Stream threads of one replay-streams instance.")
                .define(REPLAY_STANDBY_REPLICAS, Type.INT, 0, Range.between(0, 10), Importance.LOW,
                        "Warm copies of each timer store on other instances, for faster fail-over.")
                .define(REPLAY_STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                        "How often replay-streams logs its status line.")
                .define(OBJECT_PROCESSOR_DELETES_PER_SECOND, Type.DOUBLE, 500.0, Range.atLeast(0), Importance.HIGH,
                        "LifecycleDelete calls per second for the whole object-processor group; each instance "
                                + "takes the share of the partitions it is assigned. 0 means no limit.")
                .define(OBJECT_PROCESSOR_MAX_IN_FLIGHT, Type.INT, 64, Range.between(1, 10_000), Importance.MEDIUM,
                        "Most LifecycleDelete calls one object processor has outstanding at once.")
                .define(OBJECT_PROCESSOR_MAX_BUFFERED, Type.INT, 10_000, Range.between(1, 10_000_000),
                        Importance.LOW, "Most tasks one object processor holds read but not finished; past it, it "
                                + "stops fetching until some finish.")
                .define(OBJECT_PROCESSOR_RETRY_LATER_MAX_ATTEMPTS, Type.INT, 10, Range.between(1, 1_000),
                        Importance.MEDIUM, "Calls made for a task the gateway keeps answering RETRY_LATER before it is "
                                + "parked in the dead-letter topic. Later tasks of the same object wait meanwhile.")
                .define(OBJECT_PROCESSOR_RETRY_BACKOFF_INITIAL_MS, Type.LONG, 1_000L, Range.atLeast(1), Importance.LOW,
                        "First wait before calling again after RETRY_LATER; it doubles, with jitter, per attempt.")
                .define(OBJECT_PROCESSOR_RETRY_BACKOFF_MAX_MS, Type.LONG, 300_000L, Range.atLeast(1), Importance.LOW,
                        "Longest wait between RETRY_LATER attempts.")
                .define(OBJECT_PROCESSOR_TRANSPORT_BACKOFF_INITIAL_MS, Type.LONG, 200L, Range.atLeast(1),
                        Importance.LOW, "First wait before repeating a call that failed in transport (UNAVAILABLE, "
                                + "deadline); it doubles, with jitter. Such calls are repeated until they get an answer.")
                .define(OBJECT_PROCESSOR_TRANSPORT_BACKOFF_MAX_MS, Type.LONG, 5_000L, Range.atLeast(1), Importance.LOW,
                        "Longest wait between repeats of a call that failed in transport.")
                .define(OBJECT_PROCESSOR_COMMIT_INTERVAL_MS, Type.LONG, 1_000L, Range.atLeast(10), Importance.LOW,
                        "How often the object processor commits the offsets of finished tasks.")
                .define(OBJECT_PROCESSOR_RULES_MAX_AGE_MS, Type.LONG, 1_000L, Range.between(0, 60_000),
                        Importance.MEDIUM, "Before each delete the object processor checks the task against the "
                                + "bucket's lifecycle rules as the filer holds them now; a bucket's rules read less "
                                + "than this long ago are reused. A rule removed, disabled or changed stops deletes "
                                + "within this time; 0 reads the bucket entry before every delete.")
                .define(OBJECT_PROCESSOR_FAULT_MAX_ATTEMPTS, Type.INT, 10, Range.between(1, 1_000),
                        Importance.LOW, "Attempts at a task whose calls the gateway or filer failed on (UNKNOWN, "
                                + "INTERNAL, CANCELLED: how a restarting gateway's reset streams look) before it is "
                                + "parked as RPC_ERROR; the waits between them are the RETRY_LATER backoff's. "
                                + "Transport failures (UNAVAILABLE, deadlines) are retried until answered; refusals "
                                + "(INVALID_ARGUMENT, PERMISSION_DENIED, UNIMPLEMENTED...) park at once.")
                .define(OBJECT_PROCESSOR_STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                        "How often the object processor logs its status line.")
                .define(CONDUCTOR_SCHEDULE, Type.STRING, "0 2 * * *", Importance.MEDIUM,
                        "When `tidemark conductor --schedule` runs walker passes: a five-field Unix cron expression, "
                                + "evaluated in UTC.")
                .define(CONDUCTOR_MAX_BACKLOG, Type.LONG, 100_000L, Importance.MEDIUM,
                        "A walker pass is skipped while the bucket-processor or object-processor group has more "
                                + "unconsumed records than this (read from Kafka at the start of the pass). "
                                + "A negative value turns the gate off.")
                .define(CONDUCTOR_LOCK_WAIT_MS, Type.LONG, 0L, Range.atLeast(0), Importance.LOW,
                        "How long a conductor waits for the walker lock before skipping its pass; 0 skips at once "
                                + "when another conductor holds it.")
                .define(CONDUCTOR_WALK_STALE_MS, Type.LONG, 6L * 3_600_000L, Range.atLeast(1_000), Importance.LOW,
                        "A walk that finished no page for this long counts as abandoned, and the next pass seeds a "
                                + "new one for its bucket; until then, a bucket whose walk is under way is not seeded "
                                + "again.")
                .define(BUCKET_PROCESSOR_PAGE_SIZE, Type.INT, 1_000, Range.between(1, 100_000), Importance.MEDIUM,
                        "Entries one bucket task lists and evaluates before it hands the rest of the walk to a "
                                + "continuation task.")
                .define(BUCKET_PROCESSOR_TASKS_PER_TRANSACTION, Type.INT, 4, Range.between(1, 1_000),
                        Importance.LOW, "Most bucket tasks (pages) one Kafka transaction of the bucket processor "
                                + "covers.")
                .define(BUCKET_PROCESSOR_RETRY_BACKOFF_MAX_MS, Type.LONG, 30_000L, Range.atLeast(1), Importance.LOW,
                        "Longest wait before a page that failed on the filer or on Kafka is tried again; the wait "
                                + "starts at 200 ms and doubles.")
                .define(BUCKET_PROCESSOR_FAULT_MAX_ATTEMPTS, Type.INT, 5, Range.between(1, 1_000), Importance.LOW,
                        "Attempts at a page the filer fails on (UNKNOWN, INTERNAL, CANCELLED: how a filer reports its "
                                + "own errors), with the backoff between them, before its walk stops as failed; the "
                                + "next conductor pass resumes it from that page. Transport failures (UNAVAILABLE, "
                                + "deadlines) are retried without limit; refusals stop the walk at once.")
                .define(BUCKET_PROCESSOR_TRANSACTION_MAX_MS, Type.LONG, 15_000L, Range.atLeast(100), Importance.LOW,
                        "How long one bucket-processor transaction takes pages for (at most a quarter of the "
                                + "producer's transaction.timeout.ms): pages past it go into the next transaction, so "
                                + "a slow filer never runs a transaction into the coordinator's timeout.")
                .define(BUCKET_PROCESSOR_STATUS_INTERVAL_MS, Type.LONG, 30_000L, Range.atLeast(100), Importance.LOW,
                        "How often the bucket processor logs its status line.");
    }

    /** The environment variable that sets a key: {@code TIDEMARK_} and the key upper-cased, dots and dashes to underscores. */
    public static String environmentVariable(String key) {
        return ENV_PREFIX + key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    public String kafkaBootstrapServers() {
        return String.join(",", getList(KAFKA_BOOTSTRAP_SERVERS));
    }

    /** The ZooKeeper chroot as a Curator namespace (no leading slash). */
    public String zookeeperNamespace() {
        return getString(ZOOKEEPER_CHROOT).substring(1);
    }

    public Password zookeeperAuthDigest() {
        return getPassword(ZOOKEEPER_AUTH_DIGEST);
    }

    public String topicPrefix() {
        return getString(TOPIC_PREFIX);
    }

    public int shardBits() {
        return getInt(SHARD_BITS);
    }

    public LifecycleCalendar calendar() {
        return LifecycleCalendar.of(DuePolicy.parse(getString(LIFECYCLE_DUE_POLICY)),
                Duration.ofSeconds(getLong(LIFECYCLE_DAY_SECONDS)));
    }

    /** How every service reads a bucket's lifecycle XML: the validation mode and the calendar. */
    public RuleReader ruleReader() {
        return new RuleReader(ValidationMode.parse(getString(LIFECYCLE_VALIDATION_MODE)), calendar());
    }

    public GrpcTls grpcTls() {
        if (!getBoolean(GRPC_TLS_ENABLED)) {
            return GrpcTls.PLAINTEXT;
        }
        try {
            return new GrpcTls(true, path(GRPC_TLS_CA_FILE), path(GRPC_TLS_CERT_FILE), path(GRPC_TLS_KEY_FILE));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(GRPC_TLS_CERT_FILE, getString(GRPC_TLS_CERT_FILE), e.getMessage());
        }
    }

    public Duration grpcDeadline() {
        return Duration.ofMillis(getLong(GRPC_DEADLINE_MS));
    }

    public Duration shutdownTimeout() {
        return Duration.ofMillis(getLong(SHUTDOWN_TIMEOUT_MS));
    }

    /** Where replay-streams keeps its local state: its own setting, else {@code replay-streams} under the data dir. */
    public Path replayStateDir() {
        String own = getString(REPLAY_STATE_DIR);
        return own == null || own.isBlank() ? Path.of(getString(DATA_DIR), "replay-streams") : Path.of(own);
    }

    /** One setting in milliseconds, as a duration. */
    public Duration millis(String key) {
        return Duration.ofMillis(getLong(key));
    }

    private Path path(String key) {
        String value = getString(key);
        return value == null ? null : Path.of(value);
    }

    /** Settings for a producer: {@code kafka.*} passthrough, then {@code kafka.producer.*}, then the bootstrap servers. */
    public Map<String, Object> producerProperties() {
        return clientProperties("producer");
    }

    public Map<String, Object> consumerProperties() {
        return clientProperties("consumer");
    }

    public Map<String, Object> streamsProperties() {
        return clientProperties("streams");
    }

    public Map<String, Object> adminProperties() {
        return clientProperties("admin");
    }

    private Map<String, Object> clientProperties(String client) {
        Map<String, Object> properties = new HashMap<>();
        originalsWithPrefix("kafka.").forEach((key, value) -> {
            if (!key.startsWith("producer.") && !key.startsWith("consumer.") && !key.startsWith("streams.")
                    && !key.startsWith("admin.")) {
                properties.put(key, value);
            }
        });
        properties.putAll(originalsWithPrefix("kafka." + client + "."));
        properties.put("bootstrap.servers", kafkaBootstrapServers());
        return properties;
    }

    /** Every setting in force, declared and passed through, with secrets masked: what a service logs at start. */
    public Map<String, String> effective() {
        Map<String, String> effective = new TreeMap<>();
        values().forEach((key, value) -> effective.put(key, value == null ? ""
                : value instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
                : String.valueOf(value)));
        originals().forEach((key, value) -> {
            if (!effective.containsKey(key)) {
                effective.put(key, Secrets.looksSecret(key) ? Secrets.MASK : String.valueOf(value));
            }
        });
        return effective;
    }

    /** The chroot must be an absolute path without a trailing slash. */
    static final class AbsolutePath implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String path = (String) value;
            if (path == null || !path.startsWith("/") || path.length() < 2 || path.endsWith("/")) {
                throw new ConfigException(name, value, "must be an absolute ZooKeeper path such as /tidemark");
            }
        }

        @Override
        public String toString() {
            return "an absolute path, e.g. /tidemark";
        }
    }
}
