package io.tidemark.populator;

import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.locks.LockInternals;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@link Leadership} as a Curator leader latch under {@link ZooKeeperPaths#POPULATOR_LEADER}. */
final class LatchLeadership implements Leadership {

    private static final Logger log = LoggerFactory.getLogger(LatchLeadership.class);
    /** The prefix Curator's latch gives its sequential nodes, which orders them. */
    private static final String NODE_PREFIX = "latch-";

    private final CuratorFramework zookeeper;
    private final String instanceId;
    private volatile LeaderLatch latch;

    LatchLeadership(CuratorFramework zookeeper, String instanceId) {
        this.zookeeper = zookeeper;
        this.instanceId = instanceId;
        this.latch = join();
    }

    private LeaderLatch join() {
        LeaderLatch l = new LeaderLatch(zookeeper, ZooKeeperPaths.POPULATOR_LEADER, instanceId);
        try {
            l.start();
        } catch (Exception e) {
            throw new IllegalStateException("cannot join the populator leader election: " + e.getMessage(), e);
        }
        return l;
    }

    @Override
    public Optional<String> awaitLeading(Duration timeout) throws InterruptedException {
        LeaderLatch l = latch;
        // The node is read before leadership is confirmed: a latch that resets in between (and creates a new node)
        // is then not leading, and the term fences its registry writes by a node it held as leader.
        String node = l.getOurPath();
        if (!l.await(timeout.toMillis(), TimeUnit.MILLISECONDS) || node == null || !node.equals(l.getOurPath())) {
            return Optional.empty();
        }
        return Optional.of(node);
    }

    @Override
    public boolean holds() {
        return latch.hasLeadership();
    }

    @Override
    public boolean confirmed() throws Exception {
        String ours = latch.getOurPath();
        if (ours == null) {
            return false;
        }
        List<String> nodes = LockInternals.getSortedChildren(zookeeper, ZooKeeperPaths.POPULATOR_LEADER, NODE_PREFIX,
                StandardLockInternalsDriver::standardFixForSorting);
        return !nodes.isEmpty() && ours.equals(ZooKeeperPaths.POPULATOR_LEADER + "/" + nodes.get(0));
    }

    @Override
    public void rejoin() {
        closeLatch();
        latch = join();
    }

    @Override
    public void close() {
        closeLatch();
    }

    private void closeLatch() {
        try {
            latch.close();
        } catch (Exception e) {
            log.debug("closing the leader latch: {}", e.toString());
        }
    }
}
