package io.tidemark.objectprocessor;

import io.tidemark.zookeeper.Controls;
import io.tidemark.zookeeper.ControlsWatch;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The operators' controls as the processor applies them to a task's bucket: carry it out; hold it where it is (the
 * cluster is paused, or the controls are not known); defer it to the walk the bucket's resume sends (the bucket alone
 * is paused); or only record what it would do (dry run).
 */
final class BucketControls {

    enum Gate { RUN, HOLD, DEFER, DRY_RUN }

    private final Supplier<Optional<Controls>> current;
    private final LongSupplier changes;

    BucketControls(Supplier<Optional<Controls>> current, LongSupplier changes) {
        this.current = current;
        this.changes = changes;
    }

    static BucketControls following(ControlsWatch watch) {
        return new BucketControls(watch::current, watch::changes);
    }

    /** What may happen to a task of {@code bucket} now. Unknown controls hold everything: a pause may be among them. */
    Gate gate(String bucket) {
        Optional<Controls> controls = current.get();
        if (controls.isEmpty() || controls.get().clusterPause().isPresent()) {
            return Gate.HOLD;
        }
        if (controls.get().paused(bucket)) {
            return Gate.DEFER;
        }
        return controls.get().dryRun(bucket) ? Gate.DRY_RUN : Gate.RUN;
    }

    /** Whether this processor sees the whole cluster paused now. */
    boolean clusterPaused() {
        return current.get().map(c -> c.clusterPause().isPresent()).orElse(false);
    }

    /** Whether the controls are known now. */
    boolean known() {
        return current.get().isPresent();
    }

    /** Changes whenever the controls may have changed: held tasks are looked at again then. */
    long changes() {
        return changes.getAsLong();
    }
}
