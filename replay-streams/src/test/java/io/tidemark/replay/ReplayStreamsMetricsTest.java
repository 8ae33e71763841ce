package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidemark.service.Metrics;
import org.junit.jupiter.api.Test;

/** What the alert rules read, as a scrape shows it. */
class ReplayStreamsMetricsTest {

    /**
     * TidemarkReplayTimersMovedAside alerts on the increase of the moved-aside counter: a series that first appeared at
     * 1 would show none, so the counter is exported at 0 from the start, under the name the rule uses.
     */
    @Test
    void shouldExportTheMovedAsideCounterAtZeroFromTheStartUnderTheNameTheAlertReads() {
        PrometheusMeterRegistry registry = Metrics.newRegistry("replay-streams");
        ReplayStreamsMetrics metrics = new ReplayStreamsMetrics(registry);

        assertThat(registry.scrape()).contains(
                "tidemark_replay_timers_moved_aside_total{reason=\"unreadable-or-failed\",service=\"replay-streams\"} 0");

        metrics.movedAside();
        metrics.walkRequested("moved-aside");
        assertThat(registry.scrape()).contains(
                "tidemark_replay_timers_moved_aside_total{reason=\"unreadable-or-failed\",service=\"replay-streams\"} 1")
                .contains("tidemark_replay_walks_requested_total{reason=\"moved-aside\",service=\"replay-streams\"} 1");
        assertThat(metrics.total("tidemark.replay.timers.moved.aside", "unreadable-or-failed")).isEqualTo(1);
    }
}
