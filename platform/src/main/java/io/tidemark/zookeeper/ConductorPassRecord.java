package io.tidemark.zookeeper;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The conductor's last pass as it left it in ZooKeeper ({@link ZooKeeperPaths#CONDUCTOR_LAST_PASS}): a conductor run
 * as a CronJob is scraped by no one, so the long-running bucket processors export this, and {@code tidemark status}
 * prints it. Written by every pass whatever its outcome; a pass that cannot reach ZooKeeper leaves the last one.
 *
 * @param endedAt  when the pass ended, on the conductor's clock
 * @param outcome  {@code ran}, {@code skipped-lock}, {@code skipped-backlog}, {@code skipped-paused} or {@code failed}
 * @param seeded   buckets given a steady walk
 * @param underWay buckets passed over because their walk was still going
 * @param detail   why it was skipped or failed, or {@code null}
 */
public record ConductorPassRecord(Instant endedAt, String outcome, int seeded, int underWay, String detail) {

    public static final String RAN = "ran";

    /** Every outcome a pass can have, as the conductor's {@code PassOutcome} labels them (a test there says so). */
    public static final List<String> OUTCOMES = List.of(RAN, "skipped-lock", "skipped-backlog", "skipped-paused",
            "failed");

    private static final Logger log = LoggerFactory.getLogger(ConductorPassRecord.class);

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** Replaces the recorded pass with this one. */
    public void write(CuratorFramework client) throws Exception {
        byte[] value = JSON.writeValueAsBytes(this);
        try {
            client.setData().forPath(ZooKeeperPaths.CONDUCTOR_LAST_PASS, value);
        } catch (KeeperException.NoNodeException first) {
            try {
                client.create().creatingParentsIfNeeded().forPath(ZooKeeperPaths.CONDUCTOR_LAST_PASS, value);
            } catch (KeeperException.NodeExistsException raced) {
                client.setData().forPath(ZooKeeperPaths.CONDUCTOR_LAST_PASS, value);
            }
        }
    }

    /** The last pass recorded; empty when no conductor has recorded one yet, or the record cannot be read. */
    public static Optional<ConductorPassRecord> read(CuratorFramework client) throws Exception {
        byte[] value;
        try {
            value = client.getData().forPath(ZooKeeperPaths.CONDUCTOR_LAST_PASS);
        } catch (KeeperException.NoNodeException missing) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(value, ConductorPassRecord.class));
        } catch (IOException unreadable) {
            log.warn("the conductor's last pass in ZooKeeper ({}) cannot be read, taken as none: {}",
                    ZooKeeperPaths.CONDUCTOR_LAST_PASS, unreadable.toString());
            return Optional.empty();
        }
    }
}
