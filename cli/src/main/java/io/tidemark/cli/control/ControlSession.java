package io.tidemark.cli.control;

import io.tidemark.cli.ExitCodes;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A connection to ZooKeeper for one control command ({@code pause}, {@code resume}, {@code bucket dry-run},
 * {@code lifecycle settings}), given up after the configured connection timeout rather than retried for ever.
 */
public final class ControlSession implements AutoCloseable {

    private final ZooKeeperConnection zookeeper;

    private ControlSession(ZooKeeperConnection zookeeper) {
        this.zookeeper = zookeeper;
    }

    static ControlSession open(TidemarkConfig config) throws InterruptedException {
        ZooKeeperConnection zookeeper = ZooKeeperConnection.start(config);
        Duration timeout = Duration.ofMillis(config.getInt(TidemarkConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS));
        if (!zookeeper.awaitConnected(timeout)) {
            zookeeper.close();
            throw new IllegalStateException("ZooKeeper " + config.getString(TidemarkConfig.ZOOKEEPER_CONNECT)
                    + " not reachable within " + timeout.toMillis() + " ms; nothing was changed");
        }
        return new ControlSession(zookeeper);
    }

    /** What one control command does once connected; it prints to {@code out}. */
    public interface Change {
        void apply(ControlSession session, PrintWriter out) throws Exception;
    }

    /**
     * Runs one control command: connects, applies it, and turns a ZooKeeper out of reach or a bad bucket name into one
     * error line and exit 1, never a stack trace.
     */
    public static int run(CommandSpec spec, TidemarkConfig config, String command, Change change) throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (ControlSession session = open(config)) {
            change.apply(session, out);
            return ExitCodes.OK;
        } catch (IllegalStateException | IllegalArgumentException e) {
            spec.commandLine().getErr().println(command + ": " + e.getMessage());
            return ExitCodes.FAILURE;
        } finally {
            out.flush();
            spec.commandLine().getErr().flush();
        }
    }

    LifecycleControls controls() {
        return new LifecycleControls(zookeeper.client());
    }

    /** The cluster's recorded lifecycle settings. */
    public LifecycleSettings lifecycleSettings() {
        return new LifecycleSettings(zookeeper.client());
    }

    /** Whether the populator has registered the bucket as one with lifecycle rules. */
    boolean registered(String bucket) throws Exception {
        return new LifecycleBuckets(zookeeper.client()).read(bucket).isPresent();
    }

    /** The flag this command sets: now, by whom, and why. */
    static ControlFlag flag(Clock clock, String reason) {
        return new ControlFlag(clock.instant(), System.getProperty("user.name", "unknown") + "@" + host(), reason);
    }

    private static String host() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException unknown) {
            return "unknown-host";
        }
    }

    @Override
    public void close() {
        zookeeper.close();
    }
}
