package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.objectprocessor.BucketControls.Gate;
import io.tidemark.zookeeper.ControlFlag;
import io.tidemark.zookeeper.Controls;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class BucketControlsTest {

    private static final ControlFlag FLAG = new ControlFlag(Instant.EPOCH, "ops@host", null);

    @Test
    void shouldHoldEveryBucketWhileTheControlsAreNotKnown() {
        BucketControls controls = new BucketControls(Optional::empty, () -> 0);
        assertThat(controls.gate("any")).isEqualTo(Gate.HOLD);
        assertThat(controls.known()).isFalse();
    }

    @Test
    void shouldDeferAPausedBucketRecordADryRunOneRunTheOthersAndHoldAllWhileTheClusterIsPaused() {
        AtomicReference<Controls> now = new AtomicReference<>(new Controls(Optional.empty(),
                Map.of("paused", FLAG, "both", FLAG), Map.of("trial", FLAG, "both", FLAG), Map.of()));
        BucketControls controls = new BucketControls(() -> Optional.of(now.get()), () -> 0);
        assertThat(controls.gate("paused")).isEqualTo(Gate.DEFER);
        assertThat(controls.gate("trial")).isEqualTo(Gate.DRY_RUN);
        assertThat(controls.gate("both")).as("paused wins: not even a dry-run record").isEqualTo(Gate.DEFER);
        assertThat(controls.gate("other")).isEqualTo(Gate.RUN);

        now.set(new Controls(Optional.of(FLAG), Map.of(), Map.of("trial", FLAG), Map.of()));
        assertThat(controls.gate("other")).as("the cluster paused").isEqualTo(Gate.HOLD);
        assertThat(controls.gate("trial")).isEqualTo(Gate.HOLD);
    }
}
