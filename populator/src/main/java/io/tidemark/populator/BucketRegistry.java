package io.tidemark.populator;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.common.PathUtils;

/**
 * The registry of lifecycle buckets in ZooKeeper, one node per bucket under {@link ZooKeeperPaths#BUCKETS}. Every
 * write is idempotent — create or overwrite, delete if present — so the populator can repeat it after a crash
 * before its Kafka transaction committed, and the registry still ends up right.
 */
public final class BucketRegistry {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final CuratorFramework client;
    private final LifecycleBuckets reader;
    private final RuleReader rules;

    public BucketRegistry(CuratorFramework client, RuleReader rules) {
        this.client = client;
        this.reader = new LifecycleBuckets(client);
        this.rules = rules;
    }

    /** The node a bucket's configuration should have. */
    public RegistryEntry entryFor(BucketConfig config) {
        return RegistryEntry.of(config, rules);
    }

    /**
     * Writes (or removes) a bucket's node. Returns false, writing nothing, for a bucket name ZooKeeper refuses in a
     * path (control characters, say, in a directory made behind the gateway's back): a name no write could ever
     * register must not stop the populator.
     */
    public boolean apply(BucketConfigChange change) throws Exception {
        String path = ZooKeeperPaths.bucket(change.bucket());
        try {
            PathUtils.validatePath(path);
        } catch (IllegalArgumentException refused) {
            return false;
        }
        if (change.removed()) {
            try {
                client.delete().forPath(path);
            } catch (KeeperException.NoNodeException alreadyGone) {
                // Removed before a crash, or never registered: either way the registry is as it should be.
            }
            return true;
        }
        byte[] value = JSON.writeValueAsBytes(entryFor(change.config()));
        try {
            client.create().creatingParentsIfNeeded().forPath(path, value);
        } catch (KeeperException.NodeExistsException exists) {
            client.setData().forPath(path, value);
        }
        return true;
    }

    public Optional<RegistryEntry> read(String bucket) throws Exception {
        return reader.read(bucket);
    }

    public List<String> buckets() throws Exception {
        return reader.buckets();
    }

    /**
     * The walk that re-arms a bucket's timers under its current rules. The scan id names the bucket, the rule set
     * and the filer event that brought the change ({@code generationTsNs}), so a task published twice (a retried
     * transaction replays the same events) is recognisably the same walk, while rules that return to an earlier
     * set (A, B, A) start a walk of their own.
     */
    public static BucketTask recoveryTask(BucketConfigChange change, long generationTsNs) {
        String hash = change.config().ruleSetHash();
        String scanId = "recovery-" + change.bucket() + "-" + hash.substring(0, Math.min(16, hash.length())) + "-"
                + generationTsNs;
        return new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(change.bucket()),
                new BucketTask.Details(scanId, BucketTask.Mode.recovery, "", null));
    }
}
