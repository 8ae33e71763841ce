package io.tidemark.cli.status;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.objectprocessor.DeadLetters;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.zookeeper.AclCheck;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.ReplayInstances;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ZooKeeperConnection;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.zookeeper.KeeperException;

/** Gathers the pipeline's state from Kafka and ZooKeeper — never from the services themselves — and judges it. */
public final class StatusReader {

    /**
     * What counts as degraded: a group's backlog (records not yet processed) above {@code maxLag}; a filer event the
     * populator has not published for longer than {@code maxPopulatorLag}.
     */
    public record Thresholds(long maxLag, Duration maxPopulatorLag) {
    }

    private final TidemarkConfig config;
    private final Thresholds thresholds;

    public StatusReader(TidemarkConfig config, Thresholds thresholds) {
        this.config = config;
        this.thresholds = thresholds;
    }

    public StatusReport read() {
        Map<String, Object> adminProperties = config.adminProperties();
        adminProperties.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10_000);
        adminProperties.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000);
        try (Admin admin = Admin.create(adminProperties)) {
            try {
                admin.describeCluster().nodes().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                return StatusReport.unreachable("Kafka at " + config.kafkaBootstrapServers() + " does not answer: "
                        + rootMessage(e));
            }
            try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
                if (!zk.awaitConnected(Duration.ofSeconds(10))) {
                    return StatusReport.unreachable("ZooKeeper at " + config.getString(TidemarkConfig.ZOOKEEPER_CONNECT)
                            + " does not answer");
                }
                return read(admin, zk.client());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return StatusReport.unreachable("interrupted");
        } catch (Exception e) {
            return StatusReport.unreachable("reading the pipeline's state failed: " + rootMessage(e));
        }
    }

    private StatusReport read(Admin admin, CuratorFramework zk) throws Exception {
        TopicRegistry topics = TopicRegistry.from(config);
        GroupLag lag = new GroupLag(admin, config.consumerProperties());
        List<GroupLag.Partition> partitions = new ArrayList<>();
        for (ConsumerGroups.Group group : ConsumerGroups.from(config).withInputs(topics)) {
            partitions.addAll(lag.partitions(group.id(), group.topics()));
        }

        String leader = populatorLeader(zk);
        // Read only once the populator wrote it: a consumer asked for a topic that does not exist waits it out.
        Optional<PopulatorCheckpoint> checkpoint = lag.records(topics.populatorCheckpoint().name()) == 0
                ? Optional.empty() : TopicReader.committedValues(config.consumerProperties(),
                topics.populatorCheckpoint(), Duration.ofSeconds(10)).stream().reduce((a, b) -> b);

        StatusReport.Backlog backlog = checkpoint.map(c -> FilerBacklog.read(config, c)).orElse(null);

        List<ReplayInstances.Report> replay = ReplayInstances.read(zk);
        Long pending = replay.isEmpty() ? null : replay.stream().mapToLong(ReplayInstances.Report::pendingTimers).sum();

        List<StatusReport.Walk> walks = new ArrayList<>();
        LifecycleBuckets registry = new LifecycleBuckets(zk);
        WalkStates states = new WalkStates(zk);
        for (var node : registry.readAll().entrySet()) {
            String bucket = node.getKey();
            boolean walked = RegistryEntry.walked(node.getValue());
            Optional<WalkState> state = states.read(bucket);
            Instant lastFinished = state.map(WalkState::lastFinishedAt).orElse(null);
            String running = state.filter(s -> s.finishedAt() == null && !s.failed()).map(WalkState::scanId)
                    .orElse(null);
            String failed = state.filter(WalkState::failed).map(s -> s.scanId() + " at "
                    + (s.resume() == null || s.resume().marker() == null ? "its start" : s.resume().marker()) + " ("
                    + s.failedAt() + "): " + s.failure()).orElse(null);
            walks.add(new StatusReport.Walk(bucket, walked, lastFinished, running,
                    state.filter(s -> s.finishedAt() == null).map(WalkState::pages).orElse(0L), failed,
                    state.map(WalkState::lastNullMarkers).orElse(0L)));
        }
        walks.sort(Comparator.comparing(StatusReport.Walk::bucket));

        // Records, not offsets: a replayed or purged task leaves a tombstone (and transactions leave markers), so
        // end minus start counts what was ever parked, not what is parked now.
        long objectDlq = lag.records(topics.objectTasksDlq().name()) == 0 ? 0
                : new DeadLetters(config).read(Duration.ofSeconds(30)).size();
        long replayDlq = lag.records(topics.replayStreamsDlq().name()) == 0 ? 0
                : TopicReader.count(config.consumerProperties(), topics.replayStreamsDlq(), Duration.ofSeconds(30));

        Controls controls = new LifecycleControls(zk).read();
        LifecycleSettings.Recorded lifecycle = new LifecycleSettings(zk).read().orElse(null);
        StatusReport.SeaweedFs seaweed = SeaweedStatus.read(config);
        AclCheck.Result acl = zookeeperAcl(zk);
        ConductorPassRecord conductorPass = ConductorPassRecord.read(zk).orElse(null);
        List<String> reasons = new ArrayList<>();
        if (conductorPass != null && conductorPass.outcome().equals("failed")) {
            reasons.add("the conductor's last pass, at " + conductorPass.endedAt() + ", failed"
                    + (conductorPass.detail() == null ? "" : ": " + conductorPass.detail())
                    + "; no walk was seeded by it");
        }
        controls.clusterPause().ifPresent(p -> reasons.add("the cluster is paused (" + p.describe() + "): nothing "
                + "is deleted and no walk is seeded until `tidemark resume`"));
        reasons.addAll(SeaweedStatus.reasons(seaweed, backlog != null && backlog.error() != null));
        if (leader == null) {
            reasons.add("no populator leads: filer events are not being published to the meta-log");
        }
        if (backlog != null && backlog.error() != null) {
            reasons.add(backlog.error() + ": how far the populator is behind is unknown");
        } else if (backlog != null && backlog.oldestUnpublished() != null && Duration.between(
                backlog.oldestUnpublished(), Instant.now()).compareTo(thresholds.maxPopulatorLag()) > 0) {
            reasons.add("the populator is " + (backlog.events() >= FilerBacklog.MOST_COUNTED ? "at least " : "")
                    + backlog.events() + " filer event(s) behind, the oldest from "
                    + backlog.oldestUnpublished() + " (more than " + thresholds.maxPopulatorLag().toSeconds()
                    + " s ago)");
        }
        checkpoint.filter(c -> c.coldStarting() && !c.walkingAll()).ifPresent(c -> reasons.add("the populator's "
                + "cold start is under way (buckets enumerated up to \"" + c.coldStartCursor() + "\"): the registry "
                + "is not complete yet"));
        checkpoint.map(PopulatorCheckpoint::gap).filter(g -> Duration.between(EpochNanos.toInstant(g.foundNs()),
                Instant.now()).compareTo(Duration.ofDays(1)) < 0).ifPresent(g -> reasons.add("meta-log gap found at "
                + EpochNanos.toInstant(g.foundNs()) + ": the filer's meta-log no longer reached back from "
                + EpochNanos.toInstant(g.fromNs()) + " to " + EpochNanos.toInstant(g.toNs()) + " (log files purged), "
                + "so changes in between were never published; a recovery walk of every lifecycle bucket "
                + (checkpoint.get().walkingAll() ? "is being asked for (buckets enumerated up to \""
                + checkpoint.get().coldStartCursor() + "\")" : "was asked for: check below that they finished")
                + " (" + g.count() + " gap(s) since the cold start)"));
        if (replay.isEmpty()) {
            reasons.add("no replay-streams instance is reporting: timers are not firing");
        }
        partitions.stream().collect(java.util.stream.Collectors.groupingBy(GroupLag.Partition::group,
                java.util.TreeMap::new, java.util.stream.Collectors.summingLong(GroupLag.Partition::backlog)))
                .forEach((group, total) -> {
                    if (total > thresholds.maxLag()) {
                        reasons.add(group + " has " + total + " records not yet processed (more than "
                                + thresholds.maxLag() + ")");
                    }
                });
        walks.stream().filter(w -> w.failed() != null).forEach(w -> reasons.add("the walk of bucket " + w.bucket()
                + " failed: " + w.failed() + "; the next conductor pass resumes it"));
        if (objectDlq > 0) {
            reasons.add(objectDlq + " object task(s) parked in " + topics.objectTasksDlq().name()
                    + ": see `tidemark dlq list`");
        }
        if (replayDlq > 0) {
            reasons.add(replayDlq + " record(s) replay-streams could not process, in "
                    + topics.replayStreamsDlq().name());
        }
        return new StatusReport(reasons.isEmpty() ? StatusReport.Health.HEALTHY : StatusReport.Health.DEGRADED,
                reasons, partitions, leader, checkpoint.filter(c -> c.tsNs() > 0)
                .map(c -> EpochNanos.toInstant(c.tsNs())).orElse(null),
                checkpoint.map(PopulatorCheckpoint::published).orElse(0L), backlog, pending, replay.size(), walks, objectDlq,
                replayDlq, controls, lifecycle, seaweed, acl, conductorPass);
    }

    /** Which of Tidemark's nodes world:anyone may change; {@code null} when ZooKeeper refused to say. */
    private AclCheck.Result zookeeperAcl(CuratorFramework zk) throws InterruptedException {
        try {
            return AclCheck.read(zk, config);
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            return null;
        }
    }

    /** The participant holding the populator's leader latch: the one whose node has the lowest sequence. */
    private static String populatorLeader(CuratorFramework zk) throws Exception {
        List<String> children;
        try {
            children = zk.getChildren().forPath(ZooKeeperPaths.POPULATOR_LEADER);
        } catch (KeeperException.NoNodeException none) {
            return null;
        }
        Optional<String> first = children.stream().filter(c -> c.contains("latch-"))
                .min(Comparator.comparing(c -> c.substring(c.lastIndexOf("latch-"))));
        if (first.isEmpty()) {
            return null;
        }
        try {
            return new String(zk.getData().forPath(ZooKeeperPaths.POPULATOR_LEADER + "/" + first.get()),
                    java.nio.charset.StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException gone) {
            return null;
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }
}
