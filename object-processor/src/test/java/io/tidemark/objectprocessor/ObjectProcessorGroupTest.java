package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.ChildNode;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.ObjectTask;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Several object processors in one group: a crash of one, and the rate they share. */
@LocalClusterTest
class ObjectProcessorGroupTest {

    /**
     * A child-process processor is killed with SIGKILL while calls are in flight; a new one takes over from the
     * committed offsets. Every object is deleted, nothing is parked, and no task was carried out twice in effect:
     * a repeated call finds the identity gone and answers NOOP.
     */
    @Test
    void shouldCarryEveryTaskOutOnceInEffectAcrossAKillNine(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        int objects = 300;
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "kill", Map.of(
                "object-processor.max.in.flight", "8",
                "object-processor.commit.interval.ms", "200"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            List<ObjectTask> tasks = new ArrayList<>();
            for (int i = 0; i < objects; i++) {
                s3.putObject("b", "k" + i, 10, Map.of(), Map.of());
                tasks.add(f.expiration("b", "k" + i));
            }
            f.emulator.faults().setLatency(Duration.ofMillis(40));
            f.publish(tasks);

            ChildNode first = ChildNode.start(ObjectProcessorChildMain.class, "256m", f.settingsArguments());
            try {
                await().atMost(Duration.ofSeconds(60)).until(() -> gone(s3, objects) >= objects / 3);
                first.kill();
            } finally {
                first.kill();
            }
            long goneAtKill = gone(s3, objects);
            assertThat(goneAtKill).as("killed mid-way").isLessThan(objects);

            ChildNode second = ChildNode.start(ObjectProcessorChildMain.class, "256m", f.settingsArguments());
            try {
                f.awaitAllCommitted(Duration.ofSeconds(120));
            } finally {
                second.close();
            }
            assertThat(gone(s3, objects)).isEqualTo(objects);
            assertThat(f.deadLetters()).isEmpty();
            Map<String, List<String>> outcomes = f.outcomesByAction();
            for (ObjectTask task : tasks) {
                List<String> recorded = outcomes.getOrDefault(task.actionId(), List.of());
                assertThat(recorded).as(task.actionId()).isNotEmpty().allMatch(o -> o.equals("DONE")
                        || o.equals("NOOP_RESOLVED"));
                assertThat(recorded.stream().filter("DONE"::equals).count()).as(task.actionId()).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void shouldSplitTheGroupRateByAssignedPartitions(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "share", Map.of(
                "object-processor.deletes.per.second", "100"))) {
            ObjectProcessorService one = f.startProcessor();
            await().atMost(Duration.ofSeconds(30)).until(() -> one.metrics().assignedPartitions() == 4);
            assertThat(one.metrics().rateShare()).isEqualTo(100.0);

            ObjectProcessorService two = f.startProcessor();
            await().atMost(Duration.ofSeconds(60)).until(() -> one.metrics().assignedPartitions() > 0
                    && two.metrics().assignedPartitions() > 0
                    && one.metrics().assignedPartitions() + two.metrics().assignedPartitions() == 4);
            assertThat(one.metrics().rateShare() + two.metrics().rateShare()).isEqualTo(100.0);
            assertThat(one.metrics().rateShare()).isEqualTo(25.0 * one.metrics().assignedPartitions());

            two.close();
            await().atMost(Duration.ofSeconds(60)).until(() -> one.metrics().assignedPartitions() == 4);
            assertThat(one.metrics().rateShare()).isEqualTo(100.0);
        }
    }

    private static long gone(S3Gateway s3, int objects) {
        long n = 0;
        for (int i = 0; i < objects; i++) {
            if (s3.latest("b", "k" + i).isEmpty()) {
                n++;
            }
        }
        return n;
    }
}
