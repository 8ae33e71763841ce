package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.junit.jupiter.api.Test;

class OffsetCommitsTest {

    private static final TopicPartition P0 = new TopicPartition("tasks", 0);
    private static final TopicPartition P1 = new TopicPartition("tasks", 1);

    private final List<Map<TopicPartition, Long>> sent = new ArrayList<>();
    private boolean failAsync;
    private boolean syncing;

    private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>(OffsetResetStrategy.EARLIEST) {
        @Override
        public synchronized void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
            record(offsets);
            // MockConsumer commits synchronously through commitAsync: one call, recorded once.
            syncing = true;
            try {
                super.commitSync(offsets);
            } finally {
                syncing = false;
            }
        }

        @Override
        public synchronized void commitAsync(Map<TopicPartition, OffsetAndMetadata> offsets,
                                             OffsetCommitCallback callback) {
            if (!syncing) {
                record(offsets);
            }
            if (failAsync) {
                callback.onComplete(offsets, new RebalanceInProgressException("rebalancing"));
            } else {
                super.commitAsync(offsets, callback);
            }
        }
    };

    private final OffsetCommits commits = new OffsetCommits(consumer, Duration.ofHours(1));

    private void record(Map<TopicPartition, OffsetAndMetadata> offsets) {
        Map<TopicPartition, Long> positions = new HashMap<>();
        offsets.forEach((tp, o) -> positions.put(tp, o.offset()));
        sent.add(positions);
    }

    @Test
    void shouldSendOnlyThePositionsThatMovedSinceTheLastCommit() {
        commits.commit(Map.of(P0, 5L, P1, 3L), true);
        commits.commit(Map.of(P0, 5L, P1, 4L), true);

        assertThat(sent).containsExactly(Map.of(P0, 5L, P1, 3L), Map.of(P1, 4L));
    }

    @Test
    void shouldSendNothingWhenNoPositionMoved() {
        commits.commit(Map.of(P0, 5L), false);
        commits.commit(Map.of(P0, 5L), false);
        commits.commit(Map.of(), true);

        assertThat(sent).containsExactly(Map.of(P0, 5L));
    }

    @Test
    void shouldSendAgainAPositionWhoseAsynchronousCommitFailed() {
        failAsync = true;
        commits.commit(Map.of(P0, 5L), false);
        failAsync = false;
        commits.commit(Map.of(P0, 5L), false);

        assertThat(sent).containsExactly(Map.of(P0, 5L), Map.of(P0, 5L));
    }

    @Test
    void shouldSendAgainThePositionOfAPartitionGivenUpAndAssignedBack() {
        commits.commit(Map.of(P0, 5L), true);
        commits.forget(List.of(P0));
        commits.commit(Map.of(P0, 5L), true);

        assertThat(sent).containsExactly(Map.of(P0, 5L), Map.of(P0, 5L));
    }

    @Test
    void shouldBeDueOnlyOnceTheIntervalHasPassedSinceTheLastCommit() {
        commits.commit(Map.of(P0, 5L), true);
        long now = System.nanoTime();

        assertThat(commits.due(now)).isFalse();
        assertThat(commits.due(now + Duration.ofHours(2).toNanos())).isTrue();
    }
}
