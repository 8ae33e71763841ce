package io.tidemark.zookeeper;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What each running replay-streams instance reports of itself — its pending timers — as an ephemeral node under
 * {@link ZooKeeperPaths#REPLAY_INSTANCES}, so {@code tidemark status} can add them up without reaching the instances.
 * An instance that dies takes its node with its session.
 */
public final class ReplayInstances {

    private static final Logger log = LoggerFactory.getLogger(ReplayInstances.class);
    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** @param reportedAtMs when the instance wrote this, epoch milliseconds */
    public record Report(String instance, long pendingTimers, int activeTasks, long reportedAtMs) {
    }

    private ReplayInstances() {
    }

    /** Writes the report without waiting: a ZooKeeper outage must not hold up the caller. */
    public static void publish(CuratorFramework client, Report report) {
        try {
            byte[] value = JSON.writeValueAsBytes(report);
            client.create().orSetData().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .inBackground((c, event) -> {
                        if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
                            log.debug("replay instance report not written: {}",
                                    KeeperException.Code.get(event.getResultCode()));
                        }
                    }).forPath(ZooKeeperPaths.REPLAY_INSTANCES + "/" + report.instance(), value);
        } catch (Exception e) {
            log.debug("replay instance report not written: {}", e.toString());
        }
    }

    /** The reports of every instance running now. */
    public static List<Report> read(CuratorFramework client) throws Exception {
        List<String> children;
        try {
            children = client.getChildren().forPath(ZooKeeperPaths.REPLAY_INSTANCES);
        } catch (KeeperException.NoNodeException none) {
            return List.of();
        }
        List<Report> reports = new ArrayList<>();
        for (String child : children) {
            try {
                reports.add(JSON.readValue(client.getData().forPath(ZooKeeperPaths.REPLAY_INSTANCES + "/" + child),
                        Report.class));
            } catch (KeeperException.NoNodeException gone) {
                // The instance stopped between the listing and the read.
            }
        }
        return reports;
    }
}
