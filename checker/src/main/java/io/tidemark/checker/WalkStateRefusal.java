package io.tidemark.checker;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.nio.charset.StandardCharsets;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;

/**
 * ZooKeeper refusing the walks' bookkeeping for a while: every walk state (and the folder they live in) is made
 * read-only for the services, so a bucket processor that stops a walk, or finishes a page, cannot record it, as when
 * its session is lost between the page's commit and the state's write. The checker keeps the right to undo it.
 *
 * <p>A refusal is an ACL, not a stopped server: Curator waits out a server that is away for as long as its retry
 * policy allows (tens of seconds, many lifecycle days of a run), while a refused write fails at once, at the instant
 * the history chose.
 */
final class WalkStateRefusal implements AutoCloseable {

    private static final String CHECKER = "tidemark-checker:refuses-walk-states";

    private final CuratorFramework client;
    private final List<ACL> readOnly;

    private WalkStateRefusal(CuratorFramework client, List<ACL> readOnly) {
        this.client = client;
        this.readOnly = readOnly;
    }

    static WalkStateRefusal open(TidemarkConfig config) {
        CuratorFramework client = CuratorFrameworkFactory.builder()
                .connectString(config.getString(TidemarkConfig.ZOOKEEPER_CONNECT))
                .namespace(config.zookeeperNamespace())
                .authorization("digest", CHECKER.getBytes(StandardCharsets.UTF_8))
                .retryPolicy(new ExponentialBackoffRetry(100, 5, 1_000))
                .build();
        client.start();
        try {
            Id checker = new Id("digest", DigestAuthenticationProvider.generateDigest(CHECKER));
            return new WalkStateRefusal(client, List.of(new ACL(ZooDefs.Perms.READ, ZooDefs.Ids.ANYONE_ID_UNSAFE),
                    new ACL(ZooDefs.Perms.ALL, checker)));
        } catch (NoSuchAlgorithmException e) {
            client.close();
            throw new IllegalStateException("no SHA1 for ZooKeeper's digest", e);
        }
    }

    /** From now on no service can write a walk state or create one; each can still read them. */
    void refuse() throws Exception {
        try {
            client.create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.WALKS);
        } catch (KeeperException.NodeExistsException there) {
            // The walks folder exists already: its ACL changes below.
        }
        for (String path : nodes()) {
            client.setACL().withACL(readOnly).forPath(path);
        }
    }

    /** Every walk state writable again, as it was. */
    void allow() throws Exception {
        for (String path : nodes()) {
            client.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath(path);
        }
    }

    private List<String> nodes() throws Exception {
        List<String> nodes = new ArrayList<>();
        nodes.add(ZooKeeperPaths.WALKS);
        for (String child : client.getChildren().forPath(ZooKeeperPaths.WALKS)) {
            nodes.add(ZooKeeperPaths.WALKS + "/" + child);
        }
        return nodes;
    }

    @Override
    public void close() {
        client.close();
    }
}
