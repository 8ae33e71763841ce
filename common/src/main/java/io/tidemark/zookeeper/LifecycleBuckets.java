package io.tidemark.zookeeper;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/** Reads the registry of lifecycle buckets the populator keeps under {@link ZooKeeperPaths#BUCKETS}. */
public final class LifecycleBuckets {

    static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final CuratorFramework client;

    public LifecycleBuckets(CuratorFramework client) {
        this.client = client;
    }

    /** Every registered bucket, in name order. */
    public List<String> buckets() throws Exception {
        try {
            return client.getChildren().forPath(ZooKeeperPaths.BUCKETS).stream().sorted().toList();
        } catch (KeeperException.NoNodeException none) {
            return List.of();
        }
    }

    public Optional<RegistryEntry> read(String bucket) throws Exception {
        try {
            return Optional.of(parse(client.getData().forPath(ZooKeeperPaths.bucket(bucket))));
        } catch (KeeperException.NoNodeException missing) {
            return Optional.empty();
        }
    }

    static RegistryEntry parse(byte[] value) throws IOException {
        return JSON.readValue(value, RegistryEntry.class);
    }

    static byte[] write(RegistryEntry entry) throws IOException {
        return JSON.writeValueAsBytes(entry);
    }
}
