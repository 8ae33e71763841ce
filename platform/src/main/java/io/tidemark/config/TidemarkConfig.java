package io.tidemark.config;

import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.seaweed.client.GrpcTls;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.ValidString;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.config.types.Password;

/**
 * The settings of every Tidemark command and service, declared once with type, default, validator and documentation:
 * the shared ones here, each service's in its own module ({@link ConfigContribution}). Settings under {@code kafka.},
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
    public static final String FILER_ADDRESSES = "filer.addresses";
    public static final String FILER_MASTER_ADDRESS = "filer.master.address";
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
    public static final String LIFECYCLE_TEST_MODE = "lifecycle.test.mode";
    public static final String MANAGEMENT_HOST = "management.host";
    public static final String MANAGEMENT_PORT = "management.port";
    public static final String SHUTDOWN_TIMEOUT_MS = "shutdown.timeout.ms";
    public static final String DATA_DIR = "data.dir";

    /** The length of a real lifecycle day: anything else needs {@link #LIFECYCLE_TEST_MODE}. */
    public static final long REAL_DAY_SECONDS = 86_400L;

    /** The prefix of every Tidemark environment variable. */
    public static final String ENV_PREFIX = "TIDEMARK_";

    /** The modules' contributions on the class path, in a fixed order (by class name). */
    private static final List<ConfigContribution> CONTRIBUTIONS = ServiceLoader
            .load(ConfigContribution.class, TidemarkConfig.class.getClassLoader()).stream()
            .map(ServiceLoader.Provider::get)
            .sorted(Comparator.comparing(c -> c.getClass().getName()))
            .toList();

    public TidemarkConfig(Map<String, ?> values) {
        this(definition(), values);
    }

    protected TidemarkConfig(ConfigDef definition, Map<String, ?> values) {
        super(definition, values, false);
        refuseUnsafeCombinations();
    }

    /**
     * What no single setting's validator can see: a lifecycle day that is not a real one outside a declared test
     * cluster, and a stop shorter than one gRPC call. Each refusal is one line naming the settings and the way out.
     */
    private void refuseUnsafeCombinations() {
        long day = getLong(LIFECYCLE_DAY_SECONDS);
        if (day != REAL_DAY_SECONDS && !testMode()) {
            throw new ConfigException(LIFECYCLE_DAY_SECONDS + " is " + day + ", not " + REAL_DAY_SECONDS + ": every "
                    + "rule would act " + (day < REAL_DAY_SECONDS ? "sooner (a 30-day expiration after "
                    + roughly(Duration.ofSeconds(30 * day)) + ")" : "later") + ". Only a test or demo "
                    + "cluster may shorten the day: declare one with " + LIFECYCLE_TEST_MODE + "=true ("
                    + environmentVariable(LIFECYCLE_TEST_MODE) + "=true), never where the data is real");
        }
        long shutdown = getLong(SHUTDOWN_TIMEOUT_MS);
        long deadline = getLong(GRPC_DEADLINE_MS);
        if (shutdown < deadline) {
            throw new ConfigException(SHUTDOWN_TIMEOUT_MS + " (" + shutdown + ") is below " + GRPC_DEADLINE_MS + " ("
                    + deadline + "): a call in flight when the service is stopped could outlast the stop; lower "
                    + GRPC_DEADLINE_MS + " or raise " + SHUTDOWN_TIMEOUT_MS + " (at most 29000)");
        }
    }

    /**
     * Every setting: the ones all services share, declared here, and the ones each module on the class path
     * contributes ({@link ConfigContribution}). A fresh copy each time.
     */
    public static ConfigDef definition() {
        ConfigDef definition = common();
        for (ConfigContribution contribution : CONTRIBUTIONS) {
            contribution.define(definition);
        }
        return definition;
    }

    private static ConfigDef common() {
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
                .define(ZOOKEEPER_AUTH_DIGEST, Type.PASSWORD, null, new UserColonPassword(), Importance.MEDIUM,
                        "Digest authentication for ZooKeeper, as user:password; none when unset. When set, every node "
                                + "Tidemark creates (the chroot included) is readable by anyone but can be changed or "
                                + "deleted only with these credentials, so every Tidemark service sharing the chroot "
                                + "needs the same value. Unset, the nodes (the pause, dry-run and registry nodes among "
                                + "them) are world-writable, and every service warns at start.")
                .define(FILER_ADDRESS, Type.STRING, "localhost:18888", Importance.HIGH,
                        "The SeaweedFS filer's gRPC address (filer port + 10000).")
                .define(FILER_ADDRESSES, Type.LIST, "", Importance.HIGH,
                        "Every filer of a SeaweedFS cluster with several filers, as gRPC addresses, comma-separated. "
                                + "When set, the populator tails each filer's own meta-log (SubscribeLocalMetadata) "
                                + "with a cursor of its own and merges them, instead of the one aggregated stream of "
                                + "filer.address, which loses a lagging filer's events; filer.address is still the "
                                + "filer every other call goes to.")
                .define(FILER_MASTER_ADDRESS, Type.STRING, "", Importance.MEDIUM,
                        "The SeaweedFS master's gRPC address (master port + 10000, e.g. master:19333). When set, the "
                                + "populator also finds the cluster's filers from the master's node list "
                                + "(ListClusterNodes), so a filer that joins later is tailed from its first event, "
                                + "and tails each filer's own meta-log as with filer.addresses.")
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
                .define(GRPC_DEADLINE_MS, Type.LONG, 20_000L, Range.between(1, 29_000), Importance.LOW,
                        "Deadline of every unary gRPC call (and of each page of a listing). At most "
                                + "shutdown.timeout.ms, so that a call in flight when a service stops ends within the "
                                + "stop.")
                .define(TOPIC_PREFIX, Type.STRING, "tidemark.", Importance.MEDIUM,
                        "Prefix of every Tidemark topic name.")
                .define(TOPIC_REPLICATION_FACTOR, Type.SHORT, (short) -1, new MinusOneOrAtLeast(1),
                        Importance.MEDIUM, "Replication factor of new topics; -1 takes the broker's default.")
                .define(TOPIC_META_LOG_RETENTION_MS, Type.LONG, 7L * 24 * 3600 * 1000, new MinusOneOrAtLeast(HOUR_MS),
                        Importance.LOW, "Retention of the meta-log topic; -1 keeps it forever. Timers live in "
                                + "changelogged state, so it need not outlast the longest rule.")
                .define(TOPIC_TASKS_RETENTION_MS, Type.LONG, 30L * 24 * 3600 * 1000, new MinusOneOrAtLeast(HOUR_MS),
                        Importance.LOW, "Retention of the task topics (object-tasks, bucket-tasks) and of "
                                + "lifecycle-events; -1 keeps them forever. Far above any backlog a group should "
                                + "ever have: tasks deleted before they are processed are lost (the object processor "
                                + "logs, counts and alerts on it). Existing topics with a shorter retention are "
                                + "raised to it at start.")
                .define(TOPIC_DLQ_RETENTION_MS, Type.LONG, -1L, new MinusOneOrAtLeast(HOUR_MS), Importance.LOW,
                        "Retention of the dead-letter topics. -1 (the default): parked tasks stay until "
                                + "`tidemark dlq replay` or `tidemark dlq purge` removes them; a positive value also "
                                + "drops them by age.")
                .define(SHARD_BITS, Type.INT, 4, Range.between(0, 16), Importance.MEDIUM,
                        "Shards are the top bits of SHA-256(bucket/key); 2^bits partitions for the sharded topics.")
                .define(LIFECYCLE_DAY_SECONDS, Type.LONG, REAL_DAY_SECONDS, Range.atLeast(1), Importance.HIGH,
                        "Length of a lifecycle day in seconds. Anything but 86400 makes every rule act sooner or "
                                + "later than S3 would (at 60, a 30-day expiration deletes after 30 minutes), so it is "
                                + "refused unless lifecycle.test.mode=true. Every service must use the same value.")
                .define(LIFECYCLE_DUE_POLICY, Type.STRING, "aws", ValidString.in("aws", "exact"), Importance.MEDIUM,
                        "aws: due times rounded up to the next day boundary (00:00 UTC); exact: no rounding.")
                .define(LIFECYCLE_VALIDATION_MODE, Type.STRING, "aws", ValidString.in("aws", "seaweedfs"),
                        Importance.MEDIUM, "aws: lifecycle configurations are checked as S3 checks them; seaweedfs: "
                                + "also accepts what SeaweedFS's gateway accepts (NewerNoncurrentVersions without "
                                + "NoncurrentDays), so buckets with such a rule keep their rules. Every service must "
                                + "use the same mode.")
                .define(LIFECYCLE_TEST_MODE, Type.BOOLEAN, false, Importance.HIGH,
                        "Declares a test or demo cluster, where lifecycle.day.seconds may be other than 86400 (the "
                                + "quickstart, the checker, the benchmarks and the tests set it). A service in test "
                                + "mode says so in a warning at start, and `tidemark status` shows it. Never on a "
                                + "cluster with real data.")
                .define(MANAGEMENT_HOST, Type.STRING, "0.0.0.0", Importance.LOW,
                        "Address of the management HTTP endpoint (/metrics, /healthz, /readyz).")
                .define(MANAGEMENT_PORT, Type.INT, 8080, Range.between(0, 65535), Importance.MEDIUM,
                        "Port of the management HTTP endpoint; 0 picks a free one.")
                .define(SHUTDOWN_TIMEOUT_MS, Type.LONG, 25_000L, Range.between(1000, 29_000), Importance.LOW,
                        "How long a stop may take in all, kept inside Kubernetes' 30 s grace period; at least "
                                + "grpc.deadline.ms.")
                .define(DATA_DIR, Type.STRING, "tidemark-data", Importance.MEDIUM,
                        "Where services keep local state (relative paths from the working directory); deployments "
                                + "mount a volume here (the container image: /var/lib/tidemark). Never under /tmp, "
                                + "which the system may clean.");
    }

    private static final long HOUR_MS = 3_600_000L;

    private static String roughly(Duration d) {
        return d.toHours() >= 2 ? d.toHours() + " hours" : d.toMinutes() >= 2 ? d.toMinutes() + " minutes"
                : d.toSeconds() + " seconds";
    }

    /**
     * The {@code lifecycle.*} settings every service of a cluster must share, since each decides with them: the ones
     * recorded in ZooKeeper by the first service to start ({@code io.tidemark.zookeeper.LifecycleSettings}).
     */
    public static final List<String> SHARED_LIFECYCLE_SETTINGS = common().names().stream()
            .filter(name -> name.startsWith("lifecycle.")).sorted().toList();

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

    /** Whether this is a declared test or demo cluster ({@code lifecycle.test.mode}). */
    public boolean testMode() {
        return getBoolean(LIFECYCLE_TEST_MODE);
    }

    /** The values of {@link #SHARED_LIFECYCLE_SETTINGS} in force, as they are written in a properties file. */
    public Map<String, String> sharedLifecycleSettings() {
        Map<String, String> shared = new TreeMap<>();
        for (String key : SHARED_LIFECYCLE_SETTINGS) {
            shared.put(key, String.valueOf(get(key)));
        }
        return shared;
    }

    /** The default of a shared setting, as a properties file would write it. */
    public static String defaultValue(String key) {
        ConfigDef.ConfigKey definition = common().configKeys().get(key);
        if (definition == null || !definition.hasDefault()) {
            throw new IllegalArgumentException(key + " is no shared setting with a default");
        }
        return String.valueOf(definition.defaultValue);
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

    /**
     * -1 (a documented "none", "the broker's" or "no bound"), or at least a minimum: never 0, which would mean "at
     * once" or "unlimited" by accident.
     */
    public static final class MinusOneOrAtLeast implements ConfigDef.Validator {
        private final long min;
        private final String minusOne;

        public MinusOneOrAtLeast(long min) {
            this.min = min;
            this.minusOne = "-1";
        }

        /** @param minusOneMeans what -1 stands for, named in the error and the reference ("no bound") */
        public MinusOneOrAtLeast(long min, String minusOneMeans) {
            this.min = min;
            this.minusOne = "-1 (" + minusOneMeans + ")";
        }

        @Override
        public void ensureValid(String name, Object value) {
            long v = ((Number) value).longValue();
            if (v != -1 && v < min) {
                throw new ConfigException(name, value, "must be " + minusOne + " or at least " + min);
            }
        }

        @Override
        public String toString() {
            return minusOne + ", or at least " + min;
        }
    }

    /** A ZooKeeper digest, user:password with neither empty; unset or empty means none. The value never shows. */
    static final class UserColonPassword implements ConfigDef.Validator {
        @Override
        public void ensureValid(String name, Object value) {
            String digest = value == null ? null : ((org.apache.kafka.common.config.types.Password) value).value();
            if (digest == null || digest.isEmpty()) {
                return;
            }
            int colon = digest.indexOf(':');
            if (colon <= 0 || colon == digest.length() - 1) {
                throw new ConfigException(name, value, "must be user:password, e.g. tidemark:<a random string>");
            }
        }

        @Override
        public String toString() {
            return "user:password";
        }
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
