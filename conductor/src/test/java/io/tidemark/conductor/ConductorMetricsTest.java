package io.tidemark.conductor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.zookeeper.ConductorPassRecord;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConductorMetricsTest {

    @Test
    void shouldPublishEachGatedGroupsBacklogAsUnknownUntilAPassReadsIt() {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        ConductorMetrics metrics = new ConductorMetrics(meters, List.of("t.bucket-processor", "t.object-processor"));
        assertThat(meters.get("tidemark.conductor.group.backlog").gauges()).hasSize(2)
                .allSatisfy(g -> assertThat(g.value()).isNaN());
        metrics.backlog("t.object-processor", 42);
        assertThat(meters.get("tidemark.conductor.group.backlog").tag("group", "t.object-processor").gauge().value())
                .isEqualTo(42.0);
        assertThat(meters.get("tidemark.conductor.group.backlog").tag("group", "t.bucket-processor").gauge().value())
                .isNaN();
    }

    /** The bucket processors export every outcome from the record's list: it must name every outcome a pass has. */
    @Test
    void shouldRecordEveryPassOutcomeUnderTheLabelTheBucketProcessorsExport() {
        assertThat(Arrays.stream(PassOutcome.values()).map(PassOutcome::label).toList())
                .containsExactlyElementsOf(ConductorPassRecord.OUTCOMES);
    }
}
