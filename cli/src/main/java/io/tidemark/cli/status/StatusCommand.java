package io.tidemark.cli.status;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.tidemark.cli.ConfigOptions;
import io.tidemark.seaweed.client.SeaweedCheck;
import io.tidemark.topics.GroupLag;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.zookeeper.AclCheck;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.LifecycleSettings;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Shows the pipeline's state as Kafka and ZooKeeper hold it: per consumer group and partition "
                + "the committed offset, log-end offset and backlog (records not yet processed; --json also has the "
                + "consumer-groups tool's lag, which counts transaction markers); the populator's leader, its last published "
                + "event and the filer events past its checkpoint (asked of the filer); pending timers; the last finished walk per bucket; the dead-letter topics' size; the filer's SeaweedFS version and whether the S3 gateway serves LifecycleDelete (asked with a call that deletes nothing); whether Tidemark's ZooKeeper nodes are world-writable (no zookeeper.auth.digest).",
            "Exit status: 0 healthy, 1 degraded (the reasons are printed; an unreachable filer or S3 gateway is one, a gateway without LifecycleDelete another), 2 Kafka or "
                + "ZooKeeper unreachable."})
public final class StatusCommand implements Callable<Integer> {

    @Mixin
    private ConfigOptions options;

    @Spec
    private CommandSpec spec;

    @Option(names = "--json", description = "Print the report as one JSON document.")
    private boolean json;

    @Option(names = "--max-lag", defaultValue = "10000",
            description = "A group with more records than this not yet processed counts as degraded (default ${DEFAULT-VALUE}).")
    private long maxLag;

    @Option(names = "--max-populator-lag", defaultValue = "60", paramLabel = "SECONDS",
            description = "A filer event the populator has not published for longer than this counts as degraded "
                    + "(default ${DEFAULT-VALUE}).")
    private long maxPopulatorLagSeconds;

    @Override
    public Integer call() throws Exception {
        StatusReport report = new StatusReader(options.load(), new StatusReader.Thresholds(maxLag,
                Duration.ofSeconds(maxPopulatorLagSeconds))).read();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(new ObjectMapper().registerModule(new JavaTimeModule())
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).writeValueAsString(report));
        } else {
            print(report, out, Clock.systemUTC().instant());
        }
        out.flush();
        return report.health().exitCode();
    }

    static void print(StatusReport report, PrintWriter out, Instant now) {
        out.println("status: " + report.health().name().toLowerCase(Locale.ROOT));
        report.reasons().forEach(r -> out.println("  - " + r));
        if (report.health() == StatusReport.Health.UNREACHABLE) {
            return;
        }
        printLifecycle(report.lifecycle(), out);
        printSeaweed(report.seaweed(), out);
        printZooKeeperAcl(report.zookeeperAcl(), out);
        out.println();
        // BACKLOG, not the consumer-groups tool's LAG: commit markers are not work (see GroupLag); --json has both.
        out.printf(Locale.ROOT, "%-40s %-40s %9s %14s %14s %10s%n", "GROUP", "TOPIC", "PARTITION", "CURRENT-OFFSET",
                "LOG-END-OFFSET", "BACKLOG");
        for (GroupLag.Partition p : report.partitions()) {
            out.printf(Locale.ROOT, "%-40s %-40s %9d %14s %14d %10s%n", p.group(), p.topic(), p.partition(),
                    p.committed() < 0 ? "-" : String.valueOf(p.committed()), p.end(),
                    (p.backlogCounted() || p.backlog() == 0 ? "" : "~") + p.backlog());
        }
        out.println();
        out.println("populator: " + (report.populatorLeader() == null ? "no leader" : "led by "
                + report.populatorLeader()) + ", " + report.populatorPublished() + " events published"
                + (report.populatorEventAt() == null ? "" : ", last event from " + report.populatorEventAt() + " ("
                + ago(report.populatorEventAt(), now) + " ago)") + backlog(report.populatorBacklog(), now));
        out.println("replay-streams: " + (report.pendingTimers() == null ? "no instance reporting"
                : report.pendingTimers() + " timers pending on " + report.replayInstances() + " instance(s)"));
        out.println("dead letters: " + report.objectTasksDlq() + " object task(s) parked (not replayed or purged), "
                + report.replayStreamsDlq() + " replay record(s)");
        printControls(report.controls(), out);
        ConductorPassRecord pass = report.conductorPass();
        out.println("conductor: " + (pass == null ? "no pass recorded (it has not run against this cluster yet)"
                : "last pass " + pass.outcome() + " at " + pass.endedAt() + " (" + ago(pass.endedAt(), now) + " ago), "
                + pass.seeded() + " walk(s) seeded, " + pass.underWay() + " under way"
                + (pass.detail() == null ? "" : " (" + pass.detail() + ")")));
        out.println();
        out.printf(Locale.ROOT, "%-40s %-8s %-30s %s%n", "BUCKET", "WALKED", "LAST FINISHED WALK", "WALK UNDER WAY");
        for (StatusReport.Walk w : report.walks()) {
            out.printf(Locale.ROOT, "%-40s %-8s %-30s %s%n", w.bucket(), w.walked() ? "yes" : "no",
                    w.lastFinishedAt() == null ? "never" : w.lastFinishedAt() + " (" + ago(w.lastFinishedAt(), now)
                            + " ago)", w.failed() != null ? "FAILED " + w.failed()
                            : w.running() == null ? "-" : w.running() + ", " + w.runningPages() + " pages");
        }
        for (StatusReport.Walk w : report.walks()) {
            if (w.nullMarkers() > 0) {
                out.println("bucket " + w.bucket() + ": " + w.nullMarkers() + " null delete marker(s) that no lifecycle "
                        + "request can remove (SeaweedFS finds version \"null\" at the bare path only); see "
                        + "docs/operations.md");
            }
        }
    }

    /**
     * The lifecycle settings every service shares, as recorded; test mode first and in capitals, since a short day
     * on real data deletes it early.
     */
    private static void printLifecycle(LifecycleSettings.Recorded lifecycle, PrintWriter out) {
        if (lifecycle == null) {
            out.println("lifecycle settings: none recorded yet (the first service to start records its own)");
            return;
        }
        if (lifecycle.testMode()) {
            out.println("TEST MODE: a lifecycle day lasts " + lifecycle.settings().get(
                    TidemarkConfig.LIFECYCLE_DAY_SECONDS) + " s (lifecycle.test.mode=true); not for real data");
        }
        out.println("lifecycle settings: " + lifecycle.values() + " (" + lifecycle.provenance() + ")");
    }

    /** What the filer and the S3 gateway answered: the filer's version, and whether the gateway can delete. */
    private static void printSeaweed(StatusReport.SeaweedFs seaweed, PrintWriter out) {
        if (seaweed == null) {
            return;
        }
        out.println("seaweedfs: " + seaweed.filer().describe());
        out.println("seaweedfs: " + seaweed.gateway().describe() + (seaweed.gateway().state()
                == SeaweedCheck.Gateway.State.SERVED ? " (SeaweedFS " + SeaweedCheck.LIFECYCLE_DELETE_RELEASE
                + " or newer)" : ""));
    }

    /** Whether anyone who reaches ZooKeeper can change Tidemark's nodes (no zookeeper.auth.digest), in one line. */
    private static void printZooKeeperAcl(AclCheck.Result acl, PrintWriter out) {
        if (acl != null) {
            out.println("zookeeper: " + acl.describe());
        }
    }

    /** Pauses and dry runs, with who set them, when and why; the tasks they hold show as object-processor backlog. */
    private static void printControls(Controls controls, PrintWriter out) {
        if (!controls.any()) {
            out.println("controls: none (every bucket runs)");
            return;
        }
        controls.clusterPause().ifPresent(p -> out.println("controls: CLUSTER PAUSED " + p.describe()));
        controls.pausedByName().forEach((bucket, p) -> out.println("controls: bucket " + bucket + " PAUSED "
                + p.describe()));
        controls.dryRunByName().forEach((bucket, p) -> out.println("controls: bucket " + bucket + " DRY RUN "
                + p.describe() + (controls.paused(bucket) ? " (paused too: nothing is recorded)" : "")));
        controls.owedWalksByName().forEach((bucket, f) -> out.println("controls: bucket " + bucket + " OWED A WALK "
                + "for tasks only recorded (" + f.reason() + ", first at " + f.since() + "); "
                + (controls.acting(bucket) ? "the object processors send it now" : "sent once it acts again")));
        if (controls.clusterPause().isPresent()) {
            out.println("  held tasks wait in object-tasks: the object-processor BACKLOG above counts them");
        }
    }

    private static String backlog(StatusReport.Backlog backlog, Instant now) {
        if (backlog == null || backlog.error() != null) {
            return "";
        }
        if (backlog.oldestUnpublished() == null) {
            return "; nothing on the filer left to publish";
        }
        return "; " + backlog.events() + " filer event(s) not yet published, the oldest from "
                + ago(backlog.oldestUnpublished(), now) + " ago";
    }

    private static String ago(Instant then, Instant now) {
        Duration d = Duration.between(then, now);
        if (d.isNegative()) {
            return "0s";
        }
        if (d.toHours() > 0) {
            return d.toHours() + "h" + d.toMinutesPart() + "m";
        }
        if (d.toMinutes() > 0) {
            return d.toMinutes() + "m" + d.toSecondsPart() + "s";
        }
        return d.toSeconds() + "s";
    }
}
