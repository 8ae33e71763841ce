package io.tidemark.conductor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.config.TidemarkConfig;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** A conductor's settings are refused at start when they could not mean what they say. */
class ConductorSettingsTest {

    @Test
    void shouldRefuseAScheduleThatIsNoCronExpressionAtStart() {
        assertThatThrownBy(() -> new TidemarkConfig(Map.of(ConductorSettings.SCHEDULE, "every night")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("conductor.schedule")
                .hasMessageContaining("five-field Unix cron");
        assertThat(new TidemarkConfig(Map.of(ConductorSettings.SCHEDULE, "*/5 * * * *"))
                .getString(ConductorSettings.SCHEDULE)).isEqualTo("*/5 * * * *");
    }

    @Test
    void shouldTakeMinusOneAsNoBacklogGateAndRefuseOtherNegatives() {
        assertThat(ConductorSettings.from(new TidemarkConfig(Map.of(ConductorSettings.MAX_BACKLOG, "-1")))
                .maxBacklog()).isEqualTo(-1);
        assertThatThrownBy(() -> new TidemarkConfig(Map.of(ConductorSettings.MAX_BACKLOG, "-5")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("conductor.max.backlog");
    }
}
