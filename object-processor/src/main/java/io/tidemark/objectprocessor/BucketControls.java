package io.tidemark.objectprocessor;

import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.ControlsWatch;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The operators' controls as the processor applies them to a task's bucket: carry it out; hold it where it is (the
 * cluster is paused, the controls are not known, or the S3 gateway does not serve {@code LifecycleDelete}); defer it to
 * the walk the bucket's resume sends (the bucket alone is paused); or only record what it would do (dry run).
 */
final class BucketControls {

    enum Gate { RUN, HOLD, DEFER, DRY_RUN }

    private final Supplier<Optional<Controls>> current;
    private final LongSupplier changes;
    private final ClusterCheck cluster;

    BucketControls(Supplier<Optional<Controls>> current, LongSupplier changes) {
        this(current, changes, null);
    }

    /** @param cluster the gateway's state, which holds every task while it lacks the RPC; {@code null}: not followed */
    BucketControls(Supplier<Optional<Controls>> current, LongSupplier changes, ClusterCheck cluster) {
        this.current = current;
        this.changes = changes;
        this.cluster = cluster;
    }

    static BucketControls following(ControlsWatch watch, ClusterCheck cluster) {
        return new BucketControls(watch::current, watch::changes, cluster);
    }

    /**
     * What may happen to a task of {@code bucket} now. Unknown controls hold everything: a pause may be among them; so
     * does a gateway that does not serve {@code LifecycleDelete}, which would refuse every call.
     */
    Gate gate(String bucket) {
        if (gatewayLacksLifecycleDelete()) {
            return Gate.HOLD;
        }
        Optional<Controls> controls = current.get();
        if (controls.isEmpty() || controls.get().clusterPause().isPresent()) {
            return Gate.HOLD;
        }
        if (controls.get().paused(bucket)) {
            return Gate.DEFER;
        }
        return controls.get().dryRun(bucket) ? Gate.DRY_RUN : Gate.RUN;
    }

    /** Whether the S3 gateway said it does not serve {@code LifecycleDelete}. */
    boolean gatewayLacksLifecycleDelete() {
        return cluster != null && cluster.gatewayLacksLifecycleDelete();
    }

    /** Why tasks are held now, for the log. */
    String holdReason() {
        if (gatewayLacksLifecycleDelete()) {
            return cluster.gateway().describe();
        }
        return known() ? "the cluster is paused" : "the controls are not known (ZooKeeper)";
    }

    /** Whether this processor sees the whole cluster paused now. */
    boolean clusterPaused() {
        return current.get().map(c -> c.clusterPause().isPresent()).orElse(false);
    }

    /** Whether the controls are known now. */
    boolean known() {
        return current.get().isPresent();
    }

    /** Changes whenever the controls, or the gateway's state, may have changed: held tasks are looked at again then. */
    long changes() {
        return changes.getAsLong() + (cluster == null ? 0 : cluster.changes());
    }
}
