package io.tidemark.zookeeper;

import io.tidemark.config.TidemarkConfig;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.common.config.ConfigException;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code lifecycle.*} settings every service of a cluster decides with ({@link
 * TidemarkConfig#SHARED_LIFECYCLE_SETTINGS}: the day length, the due policy, the validation mode, test mode),
 * recorded at {@link ZooKeeperPaths#LIFECYCLE_SETTINGS} by the first service to start. Every service checks its own
 * against the record before it does anything and refuses to start when they differ: one replay-streams instance on a
 * 60-second day beside others on real days would fire a 30-day rule after half an hour.
 *
 * <p>They are changed on purpose by stopping every service, removing the record ({@code tidemark lifecycle settings
 * --reset}) and starting the services with the new values; the first to start records them.
 */
public final class LifecycleSettings {

    private static final Logger log = LoggerFactory.getLogger(LifecycleSettings.class);

    /** How to change the recorded values on purpose, as the refusal says it. */
    public static final String HOW_TO_CHANGE = "to change them on purpose, stop every service, run `tidemark "
            + "lifecycle settings --reset` and start them with the new values";

    /**
     * What the node holds.
     *
     * @param settings   each shared setting's value, as a properties file writes it
     * @param recordedBy the service and instance ({@code pid@host}) that recorded them
     * @param recordedAt when
     */
    public record Recorded(Map<String, String> settings, String recordedBy, Instant recordedAt) {

        public Recorded {
            settings = new TreeMap<>(settings);
        }

        /** Whether the record declares a test or demo cluster. */
        public boolean testMode() {
            return Boolean.parseBoolean(settings.get(TidemarkConfig.LIFECYCLE_TEST_MODE));
        }

        /** "recorded by B at T". */
        public String provenance() {
            return "recorded by " + recordedBy + " at " + recordedAt;
        }

        /** "k=v, k=v". */
        public String values() {
            List<String> pairs = new ArrayList<>();
            settings.forEach((k, v) -> pairs.add(k + "=" + v));
            return String.join(", ", pairs);
        }
    }

    private final CuratorFramework client;

    public LifecycleSettings(CuratorFramework client) {
        this.client = client;
    }

    /** The recorded settings, if a service recorded them. */
    public Optional<Recorded> read() throws Exception {
        try {
            return Optional.of(LifecycleControls.JSON.readValue(client.getData()
                    .forPath(ZooKeeperPaths.LIFECYCLE_SETTINGS), Recorded.class));
        } catch (KeeperException.NoNodeException none) {
            return Optional.empty();
        }
    }

    /**
     * Records {@code config}'s shared settings when none are recorded; otherwise compares them with the record.
     *
     * @return the record they agree with (theirs, when this call made it)
     * @throws ConfigException one line with every setting that differs, both values, and how to change them
     */
    public Recorded verify(TidemarkConfig config, String who, Instant now) throws Exception {
        Map<String, String> ours = config.sharedLifecycleSettings();
        Optional<Recorded> recorded = read();
        if (recorded.isEmpty()) {
            Recorded mine = new Recorded(ours, who, now);
            try {
                client.create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.LIFECYCLE_SETTINGS,
                        LifecycleControls.JSON.writeValueAsBytes(mine));
                log.info("recorded the cluster's lifecycle settings: {}", mine.values());
                return mine;
            } catch (KeeperException.NodeExistsException raced) {
                recorded = read();
                if (recorded.isEmpty()) {
                    throw new IllegalStateException("the lifecycle settings node " + ZooKeeperPaths.LIFECYCLE_SETTINGS
                            + " came and went while it was being recorded; start again");
                }
            }
        }
        Recorded theirs = recorded.get();
        List<String> differences = new ArrayList<>();
        ours.forEach((key, value) -> {
            // A setting newer than the record was at its default when the record was made.
            String cluster = theirs.settings().getOrDefault(key, TidemarkConfig.defaultValue(key));
            if (!value.equals(cluster)) {
                differences.add(key + " is " + value + " here, " + cluster + " in the cluster");
            }
        });
        if (!differences.isEmpty()) {
            throw new ConfigException("lifecycle settings differ from the cluster's (" + theirs.provenance() + "): "
                    + String.join("; ", differences) + ". Every service must decide alike: start this one with the "
                    + "cluster's values, or, " + HOW_TO_CHANGE);
        }
        return theirs;
    }

    /**
     * Removes the record, so that the next service to start records its own settings.
     *
     * @return what it held, or empty when nothing was recorded
     */
    public Optional<Recorded> reset() throws Exception {
        Optional<Recorded> recorded = read();
        try {
            client.delete().forPath(ZooKeeperPaths.LIFECYCLE_SETTINGS);
        } catch (KeeperException.NoNodeException none) {
            return Optional.empty();
        }
        return recorded;
    }

    /**
     * What every service does first at start, on its ZooKeeper connection: says loudly when it runs in test mode,
     * records or checks the cluster's lifecycle settings, then warns when Tidemark's nodes are world-writable
     * ({@link AclCheck}: no {@code zookeeper.auth.digest}).
     *
     * @throws ConfigException when its settings differ from the recorded ones
     */
    public static Recorded check(CuratorFramework client, TidemarkConfig config, String service, Clock clock)
            throws Exception {
        if (config.testMode()) {
            log.warn("{}: TEST MODE (lifecycle.test.mode=true): a lifecycle day lasts {} s instead of {} s; this is "
                    + "for tests and demos, never for a cluster with real data", service,
                    config.getLong(TidemarkConfig.LIFECYCLE_DAY_SECONDS), TidemarkConfig.REAL_DAY_SECONDS);
        }
        Recorded recorded = new LifecycleSettings(client).verify(config, service + " "
                + ManagementFactory.getRuntimeMXBean().getName(), clock.instant());
        log.info("{}: lifecycle settings agree with the cluster's ({}): {}", service, recorded.provenance(),
                recorded.values());
        AclCheck.warnIfOpen(client, config, service);
        return recorded;
    }
}
