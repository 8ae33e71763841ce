package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ReadyByBucketTest {

    private static final TopicPartition TP = new TopicPartition("object-tasks", 0);
    private final PartitionWork work = new PartitionWork();
    private long offset;

    private PendingTask task(String bucket, String key) {
        return new PendingTask(work, TP, offset++, bucket + "/" + key,
                LatenessTest.task(bucket, key, null, "replay", null), null, null);
    }

    private static List<String> drain(ReadyByBucket ready, int n) {
        List<String> taken = new ArrayList<>();
        for (int i = 0; i < n && !ready.isEmpty(); i++) {
            PendingTask t = ready.pollFirst();
            taken.add(t.task.target().bucket() + "/" + t.task.target().objectPath());
        }
        return taken;
    }

    @Test
    void shouldGiveABucketWithAFewReadyTasksItsTurnBetweenAnotherBucketsThousands() {
        ReadyByBucket ready = new ReadyByBucket();
        for (int i = 0; i < 1_000; i++) {
            ready.addLast(task("big", "k" + i));
        }
        ready.addLast(task("small", "a"));
        ready.addLast(task("small", "b"));
        ready.addLast(task("other", "x"));
        assertThat(ready.size()).isEqualTo(1_003);
        assertThat(drain(ready, 7)).containsExactly("big/k0", "small/a", "other/x", "big/k1", "small/b", "big/k2",
                "big/k3");
        assertThat(ready.size()).isEqualTo(996);
    }

    @Test
    void shouldKeepEachBucketsTasksFirstInFirstOut() {
        ReadyByBucket ready = new ReadyByBucket();
        ready.addLast(task("b", "1"));
        ready.addLast(task("b", "2"));
        ready.addLast(task("b", "3"));
        assertThat(drain(ready, 10)).containsExactly("b/1", "b/2", "b/3");
        assertThat(ready.isEmpty()).isTrue();
        assertThat(ready.pollFirst()).isNull();
    }

    @Test
    void shouldDropTheTasksOfRevokedPartitionsAndTheTurnsOfBucketsLeftWithoutAny() {
        ReadyByBucket ready = new ReadyByBucket();
        PendingTask gone = task("revoked", "k");
        ready.addLast(gone);
        ready.addLast(task("kept", "k"));
        ready.addLast(task("kept", "l"));
        ready.removeIf(t -> t == gone);
        assertThat(ready.size()).isEqualTo(2);
        assertThat(drain(ready, 10)).containsExactly("kept/k", "kept/l");
        // A bucket whose tasks all went takes its turn again from the back when it has one.
        ready.addLast(task("revoked", "m"));
        assertThat(drain(ready, 10)).containsExactly("revoked/m");
    }
}
