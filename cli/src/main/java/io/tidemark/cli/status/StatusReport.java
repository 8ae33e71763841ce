package io.tidemark.cli.status;

import io.tidemark.seaweed.client.SeaweedCheck;
import io.tidemark.zookeeper.AclCheck;
import io.tidemark.zookeeper.ConductorPassRecord;
import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.topics.GroupLag;
import java.time.Instant;
import java.util.List;

/**
 * What {@code tidemark status} found: every figure it printed, and the verdict.
 *
 * @param populatorLeader    the instance leading the populator, or {@code null} when none does
 * @param populatorEventAt   the filer time of the last event the populator published, or {@code null}
 * @param populatorBacklog   what the filer holds past the populator's checkpoint, or {@code null} before any
 * @param pendingTimers      the sum over the replay-streams instances reporting, or {@code null} when none does
 * @param reasons            why the pipeline is degraded (empty when healthy)
 * @param controls           the operators' pause and dry run
 * @param lifecycle          the cluster's lifecycle settings as the first service recorded them (the day length,
 *                           test mode...), or {@code null} when no service has started yet
 * @param seaweed            what SeaweedFS answered status (the filer's version, whether the S3 gateway serves
 *                           LifecycleDelete), or {@code null} when it was not asked
 * @param zookeeperAcl       which of Tidemark's ZooKeeper nodes world:anyone may change (none with
 *                           zookeeper.auth.digest), or {@code null} when they could not be read
 * @param conductorPass      the conductor's last pass as it recorded it in ZooKeeper, or {@code null} when none has
 */
public record StatusReport(Health health, List<String> reasons, List<GroupLag.Partition> partitions,
                           String populatorLeader, Instant populatorEventAt, long populatorPublished,
                           Backlog populatorBacklog,
                           Long pendingTimers, int replayInstances, List<Walk> walks, long objectTasksDlq,
                           long replayStreamsDlq, Controls controls, LifecycleSettings.Recorded lifecycle,
                           SeaweedFs seaweed, AclCheck.Result zookeeperAcl, ConductorPassRecord conductorPass) {

    public StatusReport(Health health, List<String> reasons, List<GroupLag.Partition> partitions,
                        String populatorLeader, Instant populatorEventAt, long populatorPublished,
                        Backlog populatorBacklog, Long pendingTimers, int replayInstances, List<Walk> walks,
                        long objectTasksDlq, long replayStreamsDlq, Controls controls,
                        LifecycleSettings.Recorded lifecycle, SeaweedFs seaweed, AclCheck.Result zookeeperAcl) {
        this(health, reasons, partitions, populatorLeader, populatorEventAt, populatorPublished, populatorBacklog,
                pendingTimers, replayInstances, walks, objectTasksDlq, replayStreamsDlq, controls, lifecycle, seaweed,
                zookeeperAcl, null);
    }

    public StatusReport(Health health, List<String> reasons, List<GroupLag.Partition> partitions,
                        String populatorLeader, Instant populatorEventAt, long populatorPublished,
                        Backlog populatorBacklog, Long pendingTimers, int replayInstances, List<Walk> walks,
                        long objectTasksDlq, long replayStreamsDlq, Controls controls,
                        LifecycleSettings.Recorded lifecycle, SeaweedFs seaweed) {
        this(health, reasons, partitions, populatorLeader, populatorEventAt, populatorPublished, populatorBacklog,
                pendingTimers, replayInstances, walks, objectTasksDlq, replayStreamsDlq, controls, lifecycle, seaweed,
                null);
    }

    public StatusReport(Health health, List<String> reasons, List<GroupLag.Partition> partitions,
                        String populatorLeader, Instant populatorEventAt, long populatorPublished,
                        Backlog populatorBacklog, Long pendingTimers, int replayInstances, List<Walk> walks,
                        long objectTasksDlq, long replayStreamsDlq, Controls controls,
                        LifecycleSettings.Recorded lifecycle) {
        this(health, reasons, partitions, populatorLeader, populatorEventAt, populatorPublished, populatorBacklog,
                pendingTimers, replayInstances, walks, objectTasksDlq, replayStreamsDlq, controls, lifecycle, null,
                null);
    }

    public StatusReport(Health health, List<String> reasons, List<GroupLag.Partition> partitions,
                        String populatorLeader, Instant populatorEventAt, long populatorPublished,
                        Backlog populatorBacklog, Long pendingTimers, int replayInstances, List<Walk> walks,
                        long objectTasksDlq, long replayStreamsDlq, Controls controls) {
        this(health, reasons, partitions, populatorLeader, populatorEventAt, populatorPublished, populatorBacklog,
                pendingTimers, replayInstances, walks, objectTasksDlq, replayStreamsDlq, controls, null, null, null);
    }

    public enum Health {
        HEALTHY(0), DEGRADED(1), UNREACHABLE(2);

        private final int exitCode;

        Health(int exitCode) {
            this.exitCode = exitCode;
        }

        public int exitCode() {
            return exitCode;
        }
    }

    /**
     * One registered bucket's walks.
     *
     * @param lastFinishedAt when its latest walk to finish did, or {@code null} if none has
     * @param running        the scan id of a walk under way, or {@code null}
     * @param failed         why its newest walk stopped on a page it could not walk, and where; {@code null} unless it
     *                       did (the next conductor pass resumes it)
     * @param nullMarkers    null delete markers its last finished walk met: versions no lifecycle request can remove
     */
    public record Walk(String bucket, boolean walked, Instant lastFinishedAt, String running, long runningPages,
                       String failed, long nullMarkers) {

        public Walk(String bucket, boolean walked, Instant lastFinishedAt, String running, long runningPages) {
            this(bucket, walked, lastFinishedAt, running, runningPages, null, 0);
        }
    }

    /**
     * The filer events past the populator's committed checkpoint when status asked.
     *
     * @param events            how many (counting stops at {@link FilerBacklog#MOST_COUNTED})
     * @param oldestUnpublished the filer time of the first of them, or {@code null} when there are none
     * @param error             why the filer could not be asked, or {@code null}
     */
    public record Backlog(long events, Instant oldestUnpublished, String error) {
    }

    /** What the filer and the S3 gateway answered status ({@link SeaweedCheck}). */
    public record SeaweedFs(SeaweedCheck.Filer filer, SeaweedCheck.Gateway gateway) {
    }

    public static StatusReport unreachable(String reason) {
        return new StatusReport(Health.UNREACHABLE, List.of(reason), List.of(), null, null, 0, null, null, 0,
                List.of(), 0, 0, Controls.NONE);
    }
}
