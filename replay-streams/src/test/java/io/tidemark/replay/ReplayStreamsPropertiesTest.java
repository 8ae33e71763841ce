package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.config.TidemarkConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;

class ReplayStreamsPropertiesTest {

    @Test
    void shouldProcessWithoutIdlingOnTheEmptyRearmPartitionUnlessTheOperatorSaysOtherwise() {
        Properties defaults = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of()));
        Properties chosen = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of(
                "kafka.streams.max.task.idle.ms", "500")));

        assertThat(defaults).containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG,
                StreamsConfig.MAX_TASK_IDLE_MS_DISABLED);
        assertThat(chosen).containsEntry(StreamsConfig.MAX_TASK_IDLE_MS_CONFIG, "500");
    }

    @Test
    void shouldPollBrieflyEnoughForTimersToFireWithinMillisecondsOfFallingDueUnlessTheOperatorSaysOtherwise() {
        Properties defaults = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of()));
        Properties chosen = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of(
                "kafka.streams.poll.ms", "100")));

        assertThat(defaults).containsEntry(StreamsConfig.POLL_MS_CONFIG, ReplayStreamsService.POLL_MS);
        assertThat(ReplayStreamsService.POLL_MS).isLessThanOrEqualTo(ReplayProcessor.CATCH_UP_INTERVAL.toMillis());
        assertThat(chosen).containsEntry(StreamsConfig.POLL_MS_CONFIG, "100");
    }

    @Test
    void shouldKeepExactlyOnceWhateverThePassthroughAsksFor() {
        Properties props = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of(
                "kafka.streams.processing.guarantee", "at_least_once", "topic.prefix", "t.")));

        assertThat(props).containsEntry(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2)
                .containsEntry(StreamsConfig.APPLICATION_ID_CONFIG, "t.replay-streams");
    }
}
