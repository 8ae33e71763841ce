package io.tidemark.zookeeper;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Reads and sets the operators' controls under {@link ZooKeeperPaths#CONTROL}: {@code tidemark pause} and
 * {@code resume} (a bucket or the whole cluster) and {@code tidemark bucket dry-run}. The object processors follow
 * them through a {@link ControlsWatch}; the conductor reads them at each pass.
 */
public final class LifecycleControls {

    static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final CuratorFramework client;

    public LifecycleControls(CuratorFramework client) {
        this.client = client;
    }

    /** Everything set now, read from ZooKeeper. */
    public Controls read() throws Exception {
        Optional<ControlFlag> cluster = flag(ZooKeeperPaths.CLUSTER_PAUSE);
        return new Controls(cluster, children(ZooKeeperPaths.PAUSED_BUCKETS),
                children(ZooKeeperPaths.DRY_RUN_BUCKETS), children(ZooKeeperPaths.OWED_WALKS));
    }

    /**
     * Pauses one bucket, or the whole cluster when {@code bucket} is empty.
     *
     * @return false when it was paused already (the first flag is kept)
     */
    public boolean pause(Optional<String> bucket, ControlFlag flag) throws Exception {
        return set(bucket.map(ZooKeeperPaths::pausedBucket).orElse(ZooKeeperPaths.CLUSTER_PAUSE), flag);
    }

    /**
     * Resumes one bucket, or the whole cluster when {@code bucket} is empty (a bucket paused on its own stays
     * paused).
     *
     * @return false when it was not paused
     */
    public boolean resume(Optional<String> bucket) throws Exception {
        return clear(bucket.map(ZooKeeperPaths::pausedBucket).orElse(ZooKeeperPaths.CLUSTER_PAUSE));
    }

    /**
     * Puts a bucket in dry run, or takes it out.
     *
     * @return false when it already was as asked
     */
    public boolean dryRun(String bucket, boolean on, ControlFlag flag) throws Exception {
        String path = ZooKeeperPaths.dryRunBucket(bucket);
        return on ? set(path, flag) : clear(path);
    }

    private boolean set(String path, ControlFlag flag) throws Exception {
        try {
            client.create().creatingParentsIfNeeded().forPath(path, JSON.writeValueAsBytes(flag));
            return true;
        } catch (KeeperException.NodeExistsException already) {
            return false;
        }
    }

    private boolean clear(String path) throws Exception {
        try {
            client.delete().forPath(path);
            return true;
        } catch (KeeperException.NoNodeException already) {
            return false;
        }
    }

    private Optional<ControlFlag> flag(String path) throws Exception {
        try {
            return Optional.of(parse(client.getData().forPath(path)));
        } catch (KeeperException.NoNodeException missing) {
            return Optional.empty();
        }
    }

    private Map<String, ControlFlag> children(String parent) throws Exception {
        Map<String, ControlFlag> flags = new HashMap<>();
        try {
            for (String bucket : client.getChildren().forPath(parent)) {
                flag(parent + "/" + bucket).ifPresent(flag -> flags.put(bucket, flag));
            }
        } catch (KeeperException.NoNodeException none) {
            return Map.of();
        }
        return flags;
    }

    /**
     * A node's flag. A node whose value cannot be read (written by hand, say) still counts: its presence is the
     * control, the value only says who and when.
     */
    static ControlFlag parse(byte[] value) {
        if (value == null || value.length == 0) {
            return new ControlFlag(Instant.EPOCH, "unknown", "set without a value");
        }
        try {
            return JSON.readValue(value, ControlFlag.class);
        } catch (IOException unreadable) {
            return new ControlFlag(Instant.EPOCH, "unknown", "unreadable value: " + unreadable.getMessage());
        }
    }
}
