package io.tidemark.devtools.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatenciesTest {

    @Test
    void shouldTakeTheNearestRankWhateverTheOrderOfTheSample() {
        Latencies l = Latencies.of(List.of(5.0, 1.0, 4.0, 2.0, 3.0, 10.0, 9.0, 8.0, 7.0, 6.0));
        assertThat(l.count()).isEqualTo(10);
        assertThat(l.percentile(0.50)).isEqualTo(5.0);
        assertThat(l.percentile(0.99)).isEqualTo(10.0);
        assertThat(l.percentile(0.10)).isEqualTo(1.0);
        assertThat(l.max()).isEqualTo(10.0);
    }

    @Test
    void shouldSayNothingOfAnEmptySample() {
        Latencies none = Latencies.of(List.of());
        assertThat(none.percentile(0.5)).isNaN();
        assertThat(none.max()).isNaN();
        assertThat(Latencies.of(3.0).percentile(0.99)).isEqualTo(3.0);
    }
}
