package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.config.TidemarkConfig;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
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

    @Test
    void shouldBoundRocksDbMemoryWithTheSettingUnlessTheOperatorBringsAConfigSetterOrLiftsTheBound() {
        Properties defaults = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of()));
        Properties chosen = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of(
                ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES, "268435456")));
        Properties unbounded = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of(
                ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES, "-1")));
        Properties own = ReplayStreamsService.streamsProperties(new TidemarkConfig(Map.of(
                "kafka.streams.rocksdb.config.setter", "com.example.MySetter")));

        assertThat(defaults).containsEntry(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDBMemory.class)
                .containsEntry(BoundedRocksDBMemory.MEMORY_BYTES_CONFIG, ReplayStreamsSettings.DEFAULT_ROCKSDB_MEMORY_BYTES);
        assertThat(chosen).containsEntry(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, BoundedRocksDBMemory.class)
                .containsEntry(BoundedRocksDBMemory.MEMORY_BYTES_CONFIG, 268_435_456L);
        assertThat(unbounded).doesNotContainKeys(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG,
                BoundedRocksDBMemory.MEMORY_BYTES_CONFIG);
        assertThat(own).containsEntry(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, "com.example.MySetter");
    }

    @Test
    void shouldRefuseARocksDbBoundTooSmallToHoldTheStoresIndexes() {
        assertThatThrownBy(() -> new TidemarkConfig(Map.of(ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES, "0")))
                .isInstanceOf(ConfigException.class).hasMessageContaining(ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES);
        assertThatThrownBy(() -> new TidemarkConfig(Map.of(ReplayStreamsSettings.ROCKSDB_MEMORY_BYTES, "1048576")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("-1");
    }
}
