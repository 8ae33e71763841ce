package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.config.ConfigLoader;
import io.tidemark.config.TidemarkConfig;
import java.util.Map;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

/** The group's delete rate: a number above 0, or `unlimited` spelled out; never a 0 that could mean either. */
class ObjectProcessorSettingsTest {

    private static double rate(String value) {
        return ObjectProcessorSettings.from(new TidemarkConfig(Map.of(ObjectProcessorSettings.DELETES_PER_SECOND,
                value))).deletesPerSecond();
    }

    @Test
    void shouldRefuseARateOfZeroAndNameTheWaysToStopOrToLiftTheLimit() {
        // An operator reaching for "stop" wrote 0 and got full speed.
        assertThatThrownBy(() -> rate("0")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("object-processor.deletes.per.second")
                .hasMessageContaining("tidemark pause").hasMessageContaining("unlimited");
        assertThatThrownBy(() -> rate("0.0")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> rate("-5")).isInstanceOf(ConfigException.class);
        assertThatThrownBy(() -> rate("fast")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("above 0, or unlimited");
    }

    @Test
    void shouldReadANumberAsTheRateAndUnlimitedAsNoLimit() {
        assertThat(rate("2.5")).isEqualTo(2.5);
        assertThat(rate("unlimited")).isInfinite();
        assertThat(rate(" Unlimited ")).isInfinite();
        assertThat(ObjectProcessorSettings.from(new TidemarkConfig(Map.of())).deletesPerSecond()).isEqualTo(500.0);
    }

    @Test
    void shouldRefuseTheIssuesMisspeltRateInsteadOfKeepingTheDefault() {
        // With the object processor's keys on the class path: `--set object-processor.deletes.per.sec=5` and
        // TIDEMARK_OBJECT_PROCESSOR_DELETES_PER_SECONDS=3 both started, at 500/s.
        assertThatThrownBy(() -> ConfigLoader.gather(TidemarkConfig.definition(), null, Map.of(),
                Map.of("object-processor.deletes.per.sec", "5"))).isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown setting object-processor.deletes.per.sec (--set); did you mean "
                        + "object-processor.deletes.per.second?");
        assertThatThrownBy(() -> ConfigLoader.gather(TidemarkConfig.definition(), null,
                Map.of("TIDEMARK_OBJECT_PROCESSOR_DELETES_PER_SECONDS", "3"), Map.of()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown environment variable TIDEMARK_OBJECT_PROCESSOR_DELETES_PER_SECONDS; did "
                        + "you mean TIDEMARK_OBJECT_PROCESSOR_DELETES_PER_SECOND (object-processor.deletes.per.second)?");
    }
}
