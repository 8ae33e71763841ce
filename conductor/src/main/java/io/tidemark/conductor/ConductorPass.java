package io.tidemark.conductor;

import io.tidemark.messages.BucketTask;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.TopicSpec;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.LifecycleBuckets;
import io.tidemark.zookeeper.LifecycleControls;
import io.tidemark.zookeeper.RegistryEntry;
import io.tidemark.zookeeper.WalkState;
import io.tidemark.zookeeper.WalkStates;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One walker pass. Takes the walker lock (a second conductor skips or waits, never overlaps); checks the backlog
 * of the bucket-processor and object-processor groups (skipping the pass above the limit, so walks never pile onto
 * work not yet done) and the operators' pause (a paused cluster seeds nothing, a paused bucket is passed over); then,
 * for each registered bucket whose rules need walks and whose previous walk is not under
 * way, records the new walk in ZooKeeper and publishes its first steady bucket task.
 */
final class ConductorPass {

    private static final Logger log = LoggerFactory.getLogger(ConductorPass.class);

    private final CuratorFramework zookeeper;
    private final Producer<byte[], byte[]> producer;
    private final TopicSpec<String, BucketTask> bucketTasks;
    private final GroupLag probe;
    private final List<ConsumerGroups.Group> gates;
    private final ConductorSettings settings;
    private final ConductorMetrics metrics;
    private final Clock clock;

    ConductorPass(CuratorFramework zookeeper, Producer<byte[], byte[]> producer, TopicSpec<String, BucketTask> bucketTasks,
                  GroupLag probe, List<ConsumerGroups.Group> gates, ConductorSettings settings,
                  ConductorMetrics metrics, Clock clock) {
        this.zookeeper = zookeeper;
        this.producer = producer;
        this.bucketTasks = bucketTasks;
        this.probe = probe;
        this.gates = gates;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clock;
    }

    PassReport run() {
        Instant started = clock.instant();
        PassReport report = runLocked();
        Instant ended = clock.instant();
        metrics.pass(report, Duration.between(started, ended), ended);
        if (report.outcome() == PassOutcome.FAILED) {
            log.error(report.summary());
        } else {
            log.info(report.summary());
        }
        return report;
    }

    private PassReport runLocked() {
        InterProcessMutex lock = new InterProcessMutex(zookeeper, ZooKeeperPaths.CONDUCTOR_LOCK);
        try {
            if (!lock.acquire(settings.lockWait().toMillis(), TimeUnit.MILLISECONDS)) {
                return new PassReport(PassOutcome.SKIPPED_LOCK, List.of(), List.of(), List.of(), 0, -1,
                        "another conductor holds the walker lock");
            }
        } catch (Exception e) {
            return new PassReport(PassOutcome.FAILED, List.of(), List.of(), List.of(), 0, -1,
                    "cannot take the walker lock: " + e.getMessage());
        }
        try {
            return seed();
        } finally {
            try {
                lock.release();
            } catch (Exception e) {
                // The lock node is ephemeral: it goes with this session at the latest.
                log.warn("walker lock not released: {}", e.toString());
            }
        }
    }

    /** The task that resumes the bucket's failed walk, the state marked as resumed; empty when none failed. */
    private Optional<BucketTask> resumeFailed(WalkStates walks, String bucket) throws Exception {
        Optional<WalkState> state = walks.read(bucket);
        if (state.isEmpty() || !state.get().failed() || state.get().resume() == null) {
            return Optional.empty();
        }
        Instant now = clock.instant();
        String scanId = state.get().scanId();
        Optional<WalkState> taken = walks.update(bucket, current -> current != null && current.failed()
                && scanId.equals(current.scanId()) ? current.resumed(now) : null);
        if (taken.isEmpty()) {
            return Optional.empty();
        }
        metrics.resumed();
        return Optional.of(new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                state.get().resume()));
    }

    private PassReport seed() {
        Controls controls;
        try {
            controls = new LifecycleControls(zookeeper).read();
        } catch (Exception e) {
            // A pause may be among what cannot be read: seeding nothing is the safe side.
            return new PassReport(PassOutcome.FAILED, List.of(), List.of(), List.of(), 0, -1,
                    "cannot read the operators' controls (pause): " + e.getMessage());
        }
        if (controls.clusterPause().isPresent()) {
            return new PassReport(PassOutcome.SKIPPED_PAUSED, List.of(), List.of(), List.of(), 0, -1,
                    "the cluster is paused " + controls.clusterPause().get().describe());
        }
        long backlog = -1;
        if (settings.maxBacklog() >= 0) {
            try {
                for (ConsumerGroups.Group gate : gates) {
                    long groupBacklog = probe.total(gate.id(), gate.topics());
                    metrics.backlog(gate.id(), groupBacklog);
                    backlog = Math.max(backlog, groupBacklog);
                    if (groupBacklog > settings.maxBacklog()) {
                        return new PassReport(PassOutcome.SKIPPED_BACKLOG, List.of(), List.of(), List.of(), 0,
                                groupBacklog,
                                gate.id() + " has " + groupBacklog + " records to consume on "
                                        + String.join(", ", gate.topics())
                                        + ", more than " + settings.maxBacklog());
                    }
                }
            } catch (Exception e) {
                return new PassReport(PassOutcome.FAILED, List.of(), List.of(), List.of(), 0, -1,
                        "cannot read the consumer groups' backlog: " + e.getMessage());
            }
        }
        LifecycleBuckets registry = new LifecycleBuckets(zookeeper);
        WalkStates walks = new WalkStates(zookeeper);
        List<String> seeded = new ArrayList<>();
        List<String> underWay = new ArrayList<>();
        List<String> paused = new ArrayList<>();
        List<Future<?>> sends = new ArrayList<>();
        int notWalked = 0;
        try {
            for (var node : registry.readAll().entrySet()) {
                String bucket = node.getKey();
                Optional<RegistryEntry> entry = node.getValue();
                if (controls.paused(bucket)) {
                    // Its tasks are only recorded at the object processors, which send it a walk when it is resumed.
                    paused.add(bucket);
                    continue;
                }
                Optional<BucketTask> resumed = resumeFailed(walks, bucket);
                if (resumed.isPresent()) {
                    // A walk that stopped on a page it could not walk is taken up again from that page, whatever the
                    // bucket's rules: a recovery walk (the only walk a timers-only bucket gets) is owed to the end.
                    sends.add(producer.send(bucketTasks.record(bucket, resumed.get())));
                    seeded.add(bucket);
                    log.info("bucket {}: resuming failed walk {} from {}", bucket, resumed.get().details().scanId(),
                            resumed.get().details().marker() == null ? "its start" : resumed.get().details().marker());
                    continue;
                }
                if (!RegistryEntry.walked(entry)) {
                    notWalked++;
                    continue;
                }
                if (entry.isEmpty()) {
                    log.warn("bucket {}: its registry node cannot be read; walking it to be safe", bucket);
                }
                Instant now = clock.instant();
                String scanId = "steady-" + bucket + "-" + now.toEpochMilli();
                Optional<WalkState> started = walks.update(bucket, current -> current != null
                        && current.inProgress(now, settings.walkStaleAfter()) ? null
                        : WalkState.seeded(scanId, BucketTask.Mode.steady.name(), now, current));
                if (started.isEmpty()) {
                    underWay.add(bucket);
                    continue;
                }
                BucketTask task = new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                        new BucketTask.Details(scanId, BucketTask.Mode.steady, "", null));
                sends.add(producer.send(bucketTasks.record(bucket, task)));
                seeded.add(bucket);
            }
            producer.flush();
            for (Future<?> send : sends) {
                send.get(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            return new PassReport(PassOutcome.FAILED, seeded, underWay, paused, notWalked, backlog,
                    "seeding stopped: " + e.getMessage() + "; buckets recorded as seeded but not sent are walked "
                            + "again once their walk counts as stale");
        }
        metrics.seeded(seeded.size(), underWay.size());
        return new PassReport(PassOutcome.RAN, seeded, underWay, paused, notWalked, backlog, null);
    }
}
