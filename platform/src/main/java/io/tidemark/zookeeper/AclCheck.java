package io.tidemark.zookeeper;

import io.tidemark.config.TidemarkConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.common.config.types.Password;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether anyone who reaches ZooKeeper can change Tidemark's nodes: the chroot, the operators' controls (pause, dry
 * run, owed walks), the bucket registry and the shared lifecycle settings. Without {@code zookeeper.auth.digest}
 * Tidemark creates them with ZooKeeper's open ACL ({@code world:anyone:cdrwa}); with it, readable by anyone and
 * changed only with the digest ({@link ZooKeeperConnection}). Nodes keep the ACL they were created with, so a digest
 * set later does not close nodes created before it.
 *
 * <p>Every service reads it at start ({@link LifecycleSettings#check}) and logs one warning when a node is open;
 * {@code tidemark status} shows it. Reading an ACL needs no credentials, only READ, which both ACLs grant.
 */
public final class AclCheck {

    private static final Logger log = LoggerFactory.getLogger(AclCheck.class);

    /** The permissions that let a client change a node, or create or delete what is under it. */
    static final int CHANGING = ZooDefs.Perms.WRITE | ZooDefs.Perms.CREATE | ZooDefs.Perms.DELETE
            | ZooDefs.Perms.ADMIN;

    /** The nodes read, relative to the chroot ("/" is the chroot itself); those that do not exist are skipped. */
    public static final List<String> NODES = List.of("/", "/lifecycle", ZooKeeperPaths.CONTROL,
            ZooKeeperPaths.CLUSTER_PAUSE, ZooKeeperPaths.PAUSED_BUCKETS, ZooKeeperPaths.DRY_RUN_BUCKETS,
            ZooKeeperPaths.OWED_WALKS, "/lifecycle/data", ZooKeeperPaths.BUCKETS, ZooKeeperPaths.LIFECYCLE_SETTINGS);

    /** Where to read how to close them. */
    public static final String HOW_TO_FIX = "docs/operations.md#zookeeper-acls";

    /**
     * One node world:anyone may change.
     *
     * @param path        its absolute path, the chroot included
     * @param permissions what world:anyone may do, in ZooKeeper's letters ({@code cdrwa}: create, delete, read,
     *                    write, admin)
     */
    public record Node(String path, String permissions) {

        /** "/path (cdrwa)". */
        public String describe() {
            return path + " (" + permissions + ")";
        }
    }

    /**
     * What was read.
     *
     * @param chroot        Tidemark's chroot ({@code zookeeper.chroot})
     * @param digest        whether the reader authenticates with {@code zookeeper.auth.digest}
     * @param checked       how many of {@link #NODES} exist and were read
     * @param worldWritable those that grant world:anyone more than read
     */
    public record Result(String chroot, boolean digest, int checked, List<Node> worldWritable) {

        public Result {
            worldWritable = List.copyOf(worldWritable);
        }

        /** Whether any node read is world-writable. */
        public boolean open() {
            return !worldWritable.isEmpty();
        }

        private String nodes() {
            return worldWritable.stream().map(Node::describe).collect(Collectors.joining(", "));
        }

        /** The warning a service logs at start, in one line; empty when no node read is world-writable. */
        public Optional<String> warning(String who) {
            if (!open()) {
                return Optional.empty();
            }
            return Optional.of(who + ": ZooKeeper nodes under " + chroot + " are world-writable: world:anyone may "
                    + "change " + nodes() + "; anyone who reaches ZooKeeper can pause, resume or dry-run deletes and "
                    + "rewrite the bucket registry. " + (digest
                    ? "zookeeper.auth.digest is set, but these nodes were created before it was: set their ACL to "
                    + "the digest's identity (" + HOW_TO_FIX + ")"
                    : "Set zookeeper.auth.digest (TIDEMARK_ZOOKEEPER_AUTH_DIGEST) to user:password on every service "
                    + "and client of this chroot (" + HOW_TO_FIX + ")"));
        }

        /** What {@code tidemark status} prints after "zookeeper: ". */
        public String describe() {
            if (open()) {
                return "WORLD-WRITABLE: world:anyone may change " + worldWritable.size() + " of the " + checked
                        + " nodes read under " + chroot + ": " + nodes() + "; anyone who reaches ZooKeeper can "
                        + "pause, resume or dry-run deletes and rewrite the bucket registry; set zookeeper.auth.digest "
                        + "on every service (" + HOW_TO_FIX + ")";
            }
            return "no node under " + chroot + " grants world:anyone more than read (" + checked + " read"
                    + (digest ? ", authenticated with zookeeper.auth.digest" : "") + ")";
        }
    }

    private AclCheck() {
    }

    /** Reads the ACLs of {@link #NODES} under {@code config}'s chroot on {@code client}, a client of that chroot. */
    public static Result read(CuratorFramework client, TidemarkConfig config) throws Exception {
        Password digest = config.zookeeperAuthDigest();
        return read(client, config.getString(TidemarkConfig.ZOOKEEPER_CHROOT),
                digest != null && digest.value() != null && !digest.value().isEmpty());
    }

    /**
     * Reads the ACLs of {@link #NODES} on {@code client}, whose namespace is {@code chroot}.
     *
     * @throws KeeperException when ZooKeeper refuses a read other than for a missing node
     */
    public static Result read(CuratorFramework client, String chroot, boolean digest) throws Exception {
        List<Node> open = new ArrayList<>();
        int checked = 0;
        for (String node : NODES) {
            List<ACL> acl;
            try {
                acl = client.getACL().forPath(node);
            } catch (KeeperException.NoNodeException absent) {
                continue;
            }
            checked++;
            int world = 0;
            for (ACL entry : acl) {
                if (ZooDefs.Ids.ANYONE_ID_UNSAFE.equals(entry.getId())) {
                    world |= entry.getPerms();
                }
            }
            if ((world & CHANGING) != 0) {
                open.add(new Node(node.equals("/") ? chroot : (chroot.equals("/") ? "" : chroot) + node,
                        letters(world)));
            }
        }
        return new Result(chroot, digest, checked, open);
    }

    /**
     * What a service does at start once it has written to its chroot: reads the ACLs and logs one warning when a
     * node is world-writable. Never stops the start: a failure to read is logged, nothing else.
     */
    public static void warnIfOpen(CuratorFramework client, TidemarkConfig config, String service)
            throws InterruptedException {
        try {
            Result result = read(client, config);
            Optional<String> warning = result.warning(service);
            if (warning.isPresent()) {
                log.warn(warning.get());
            } else {
                log.info("{}: ZooKeeper: {}", service, result.describe());
            }
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            log.warn("{}: could not read the ACLs of Tidemark's ZooKeeper nodes under {} to check that they are not "
                    + "world-writable: {}", service, config.getString(TidemarkConfig.ZOOKEEPER_CHROOT), e.toString());
        }
    }

    /** ZooKeeper's letters for {@code perms}, as its CLI prints them: cdrwa. */
    static String letters(int perms) {
        StringBuilder s = new StringBuilder();
        if ((perms & ZooDefs.Perms.CREATE) != 0) {
            s.append('c');
        }
        if ((perms & ZooDefs.Perms.DELETE) != 0) {
            s.append('d');
        }
        if ((perms & ZooDefs.Perms.READ) != 0) {
            s.append('r');
        }
        if ((perms & ZooDefs.Perms.WRITE) != 0) {
            s.append('w');
        }
        if ((perms & ZooDefs.Perms.ADMIN) != 0) {
            s.append('a');
        }
        return s.toString();
    }
}
