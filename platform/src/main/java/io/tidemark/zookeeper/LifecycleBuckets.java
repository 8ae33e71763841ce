package io.tidemark.zookeeper;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/** Reads the registry of lifecycle buckets the populator keeps under {@link ZooKeeperPaths#BUCKETS}. */
public final class LifecycleBuckets {

    static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** Most registry reads or writes one caller keeps outstanding. */
    public static final int IN_FLIGHT = 1_000;

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

    /**
     * Every registered bucket and its entry (empty: the node could not be parsed), in name order. The reads are
     * pipelined, at most {@link #IN_FLIGHT} outstanding, so the whole registry costs about one round trip per
     * thousand buckets instead of one per bucket. A node deleted between the listing and its read is left out.
     */
    public Map<String, Optional<RegistryEntry>> readAll() throws Exception {
        List<String> names = buckets();
        Semaphore window = new Semaphore(IN_FLIGHT);
        List<CompletableFuture<byte[]>> reads = new ArrayList<>(names.size());
        for (String name : names) {
            window.acquire();
            CompletableFuture<byte[]> read = new CompletableFuture<>();
            read.whenComplete((value, error) -> window.release());
            client.getData().inBackground((c, event) -> {
                int rc = event.getResultCode();
                if (rc == KeeperException.Code.OK.intValue()) {
                    read.complete(event.getData());
                } else if (rc == KeeperException.Code.NONODE.intValue()) {
                    read.complete(null);
                } else {
                    read.completeExceptionally(KeeperException.create(KeeperException.Code.get(rc), event.getPath()));
                }
            }).forPath(ZooKeeperPaths.bucket(name));
            reads.add(read);
        }
        Map<String, Optional<RegistryEntry>> all = new TreeMap<>();
        for (int i = 0; i < names.size(); i++) {
            byte[] value;
            try {
                value = reads.get(i).get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
            if (value != null) {
                all.put(names.get(i), parseOrEmpty(value));
            }
        }
        return all;
    }

    private static Optional<RegistryEntry> parseOrEmpty(byte[] value) {
        try {
            return Optional.of(parse(value));
        } catch (IOException unreadable) {
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
