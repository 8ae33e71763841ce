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
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.kafka.clients.producer.Producer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One walker pass. Takes the walker lock (a second conductor skips or waits, never overlaps); checks the backlog
 * of the bucket-processor and object-processor groups (skipping the pass above the limit, so walks never pile onto
 * work not yet done) and the operators' pause (a paused cluster seeds nothing, a paused bucket is passed over); then
 * resumes every walk it owes the rest of ({@link OwedWalk}: a failed walk, a stalled recovery walk), and publishes the
 * first steady bucket task of a new walk for each registered bucket whose rules need walks and whose previous walk is
 * not under way. A walk's state is written only once its task is in Kafka ({@link Handoffs}).
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
        Handoffs handoffs = new Handoffs(producer, bucketTasks, walks);
        List<String> underWay = new ArrayList<>();
        List<String> paused = new ArrayList<>();
        int notWalked = 0;
        String stopped = null;
        try {
            for (var node : registry.readAll().entrySet()) {
                String bucket = node.getKey();
                Optional<RegistryEntry> entry = node.getValue();
                if (controls.paused(bucket)) {
                    // Its tasks are only recorded at the object processors, which send it a walk when it is resumed.
                    paused.add(bucket);
                    continue;
                }
                Instant now = clock.instant();
                Optional<WalkState> state = walks.read(bucket);
                Optional<OwedWalk> owed = OwedWalk.of(bucket, state, now, settings.walkStaleAfter());
                if (owed.isPresent()) {
                    OwedWalk walk = owed.get();
                    handoffs.send(walk.task(), current -> walk.resumedFrom(current, now), true);
                    log.info("bucket {}: resuming {} walk {} ({}) from {}", bucket,
                            walk.failed() ? "failed" : "stalled", walk.task().details().scanId(),
                            walk.task().details().mode(), walk.task().details().marker() == null ? "its start"
                                    : walk.task().details().marker());
                    continue;
                }
                if (!RegistryEntry.walked(entry)) {
                    notWalked++;
                    continue;
                }
                if (entry.isEmpty()) {
                    log.warn("bucket {}: its registry node cannot be read; walking it to be safe", bucket);
                }
                if (state.isPresent() && state.get().inProgress(now, settings.walkStaleAfter())) {
                    underWay.add(bucket);
                    continue;
                }
                String scanId = BucketTask.STEADY_SCAN_PREFIX + bucket + "-" + now.toEpochMilli();
                WalkState seen = state.orElse(null);
                // Recorded once sent, and only over the state this decision was made on: a processor that already
                // took the new walk's first page has written its state itself.
                handoffs.send(new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                                new BucketTask.Details(scanId, BucketTask.Mode.steady, "", null)),
                        current -> Objects.equals(current, seen)
                                ? WalkState.seeded(scanId, BucketTask.Mode.steady.name(), now, current) : null,
                        false);
            }
        } catch (Exception e) {
            stopped = "seeding stopped: " + e.getMessage();
        }
        // The tasks handed over so far are settled even when seeding stopped: a walk resumed is recorded as such.
        Handoffs.Settled settled = handoffs.settle();
        settled.resumed().forEach(bucket -> metrics.resumed());
        if (!settled.unsent().isEmpty()) {
            String unsent = "not sent for " + String.join(", ", settled.unsent()) + " (" + settled.firstFailure()
                    + "); their walk states are as they were, and the next pass sends them again";
            stopped = stopped == null ? unsent : stopped + "; " + unsent;
        }
        metrics.seeded(settled.sent().size(), underWay.size());
        if (stopped != null) {
            return new PassReport(PassOutcome.FAILED, settled.sent(), underWay, paused, notWalked, backlog, stopped);
        }
        return new PassReport(PassOutcome.RAN, settled.sent(), underWay, paused, notWalked, backlog, null);
    }
}
