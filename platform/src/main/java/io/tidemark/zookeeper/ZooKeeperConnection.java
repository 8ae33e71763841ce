package io.tidemark.zookeeper;

import io.tidemark.config.TidemarkConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.kafka.common.config.types.Password;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Curator client under Tidemark's chroot, with retries and digest authentication from the configuration, and
 * the one place connection-state changes are seen: they are logged, kept for readiness checks, and handed to
 * whoever registered (a leader steps down on SUSPENDED or LOST).
 */
public final class ZooKeeperConnection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperConnection.class);

    /**
     * Every permission for the creating identity, read for everyone else. Not {@code List.of}: ZooKeeper asks the
     * list whether it contains null, which an immutable list answers with an exception.
     */
    private static final List<ACL> CREATOR_ACL = Collections.unmodifiableList(Arrays.asList(
            new ACL(ZooDefs.Perms.ALL, ZooDefs.Ids.AUTH_IDS), new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE)));

    private static final ACLProvider CREATOR_ONLY = new ACLProvider() {
        @Override
        public List<ACL> getDefaultAcl() {
            return CREATOR_ACL;
        }

        @Override
        public List<ACL> getAclForPath(String path) {
            return CREATOR_ACL;
        }
    };

    private final CuratorFramework client;
    private final List<Consumer<ConnectionState>> listeners = new CopyOnWriteArrayList<>();
    private volatile ConnectionState state = ConnectionState.LOST;

    private ZooKeeperConnection(CuratorFramework client) {
        this.client = client;
        client.getConnectionStateListenable().addListener((c, newState) -> {
            state = newState;
            if (newState == ConnectionState.CONNECTED || newState == ConnectionState.RECONNECTED) {
                log.info("zookeeper: {}", newState);
            } else {
                log.warn("zookeeper: {}", newState);
            }
            listeners.forEach(l -> l.accept(newState));
        });
    }

    public static ZooKeeperConnection start(TidemarkConfig config) {
        return start(config.getString(TidemarkConfig.ZOOKEEPER_CONNECT), config.zookeeperNamespace(),
                Duration.ofMillis(config.getInt(TidemarkConfig.ZOOKEEPER_SESSION_TIMEOUT_MS)),
                Duration.ofMillis(config.getInt(TidemarkConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS)),
                config.zookeeperAuthDigest());
    }

    public static ZooKeeperConnection start(String connect, String namespace, Duration sessionTimeout,
                                            Duration connectionTimeout, Password digest) {
        CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
                .connectString(connect)
                .namespace(namespace)
                .sessionTimeoutMs((int) sessionTimeout.toMillis())
                .connectionTimeoutMs((int) connectionTimeout.toMillis())
                .retryPolicy(new ExponentialBackoffRetry(200, 10, 5_000));
        if (digest != null && digest.value() != null && !digest.value().isEmpty()) {
            builder.authorization("digest", digest.value().getBytes(StandardCharsets.UTF_8));
            // Authenticated, so what we create belongs to this identity: readable by anyone, changed or removed
            // only by clients holding the same credentials (the chroot itself included).
            builder.aclProvider(CREATOR_ONLY);
        }
        ZooKeeperConnection connection = new ZooKeeperConnection(builder.build());
        connection.client.start();
        return connection;
    }

    public CuratorFramework client() {
        return client;
    }

    public ConnectionState state() {
        return state;
    }

    /** Connected now (CONNECTED, RECONNECTED or READ_ONLY). */
    public boolean connected() {
        return state.isConnected();
    }

    public boolean awaitConnected(Duration timeout) throws InterruptedException {
        return client.blockUntilConnected((int) timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    public void onStateChange(Consumer<ConnectionState> listener) {
        listeners.add(listener);
    }

    @Override
    public void close() {
        client.close();
    }
}
