package io.tidemark.zookeeper;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Reads and changes the walk states under {@link ZooKeeperPaths#WALKS}. A change is a compare-and-set on the node's
 * version, repeated when another writer got there first, so the conductor seeding a walk and a bucket processor
 * finishing a page never overwrite each other.
 */
public final class WalkStates {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final int ATTEMPTS = 10;

    private final CuratorFramework client;

    public WalkStates(CuratorFramework client) {
        this.client = client;
    }

    public Optional<WalkState> read(String bucket) throws Exception {
        try {
            return Optional.of(JSON.readValue(client.getData().forPath(path(bucket)), WalkState.class));
        } catch (KeeperException.NoNodeException missing) {
            return Optional.empty();
        }
    }

    /**
     * Applies {@code change} to the bucket's state (empty when there is none yet); a {@code null} result leaves the
     * node as it is.
     *
     * @return the state written, or empty when the change declined
     */
    public Optional<WalkState> update(String bucket, UnaryOperator<WalkState> change) throws Exception {
        String path = path(bucket);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Stat stat = new Stat();
            WalkState current;
            try {
                current = JSON.readValue(client.getData().storingStatIn(stat).forPath(path), WalkState.class);
            } catch (KeeperException.NoNodeException missing) {
                current = null;
            }
            WalkState next = change.apply(current);
            if (next == null) {
                return Optional.empty();
            }
            byte[] value = JSON.writeValueAsBytes(next);
            try {
                if (current == null) {
                    client.create().creatingParentsIfNeeded().forPath(path, value);
                } else {
                    client.setData().withVersion(stat.getVersion()).forPath(path, value);
                }
                return Optional.of(next);
            } catch (KeeperException.NodeExistsException | KeeperException.BadVersionException raced) {
                // Another writer changed the node between our read and write: read again and re-apply.
            }
        }
        throw new IllegalStateException("walk state of " + bucket + " kept changing under " + ATTEMPTS + " attempts");
    }

    private static String path(String bucket) {
        ZooKeeperPaths.bucket(bucket); // validates the name
        return ZooKeeperPaths.walk(bucket);
    }
}
