package io.tidemark.bucketprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.ChildNode;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.ObjectTask;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;

@LocalClusterTest
class BucketProcessorServiceTest {

    private static final String DUE_BY_DATE = "<LifecycleConfiguration><Rule><ID>date</ID><Filter><Prefix></Prefix>"
            + "</Filter><Status>Enabled</Status><Expiration><Date>2026-01-01T00:00:00Z</Date></Expiration></Rule>"
            + "</LifecycleConfiguration>";

    private static void dueBucket(S3Gateway s3, String bucket, int objects) {
        s3.createBucket(bucket, false);
        s3.putLifecycle(bucket, DUE_BY_DATE);
        for (int i = 0; i < objects; i++) {
            s3.putObject(bucket, String.format("p%02d/o%05d", i % 7, i), 1, Map.of(), Map.of());
        }
    }

    private static Map<String, Long> countsByPath(List<ObjectTask> tasks) {
        return tasks.stream().collect(Collectors.groupingBy(t -> t.target().objectPath(), Collectors.counting()));
    }

    @Test
    void shouldWalkABucketPageByPageAndCommitEachPageOnce(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = new ProcessorFixture(cluster, ns, "walk", Map.of("bucket-processor.page.size", "100"))) {
            dueBucket(f.emulator.s3(), "b", 1_000);
            BucketProcessorService service = f.startProcessor();
            f.publish(ProcessorFixture.steady("b", "scan-walk"));

            await().atMost(Duration.ofSeconds(60)).until(() -> f.finished("b", "scan-walk"));

            Map<String, Long> counts = countsByPath(f.awaitCommittedTasks(1_000));
            assertThat(counts).hasSize(1_000).allSatisfy((path, n) -> assertThat(n).as(path).isEqualTo(1));
            assertThat(f.walk("b").orElseThrow().entries()).isEqualTo(1_007);
            int pages = (int) f.walk("b").orElseThrow().pages();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(f.committedBucketTasks())
                    .hasSize(pages));
            assertThat(service.metrics().walksDone()).isEqualTo(1);
        }
    }

    /**
     * Issue 29 (invariant 7): the walker judged due-ness on its host's clock, so a host three days ahead sent a task
     * for an object written a moment ago under a one-day rule. It judges on the filer's clock: a timer, no task — the
     * object re-armed, as listed, for replay-streams to time (issue 43 item 8: a walk that did nothing passed too).
     */
    @Test
    void shouldJudgeDueOnTheFilersClockWhenItsHostRunsAhead(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = new ProcessorFixture(cluster, ns, "ahead", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putLifecycle("b", "<LifecycleConfiguration><Rule><ID>day</ID><Filter><Prefix></Prefix></Filter>"
                    + "<Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>");
            s3.putObject("b", "fresh", 1, Map.of(), Map.of());
            f.startProcessor(java.time.Clock.offset(java.time.Clock.systemUTC(), Duration.ofDays(3)));
            // A recovery walk: the one that decides timer kinds (a populator asks for it on a rule change).
            f.publish(new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target("b"),
                    new BucketTask.Details("scan-ahead", BucketTask.Mode.recovery, "", null)));

            await().atMost(Duration.ofSeconds(60)).until(() -> f.finished("b", "scan-ahead"));

            // The walk's transaction becomes readable once its markers are written, a moment after its commit.
            Entry listed = f.emulator.store().lookup("/buckets/b", "fresh").orElseThrow();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(f.committedRearms())
                    .as("re-armed, as listed, for replay-streams to time").containsOnlyKeys("b/fresh")
                    .extractingByKey("b/fresh").asInstanceOf(InstanceOfAssertFactories.list(MetaLogRecord.class))
                    .singleElement().satisfies(rearm -> {
                        assertThat(rearm.getKind()).isEqualTo(EventKind.REARM);
                        assertThat(rearm.getRearmRole()).isEqualTo(RearmRole.CURRENT);
                        assertThat(rearm.getBucket()).isEqualTo("b");
                        assertThat(rearm.getLogicalKey()).isEqualTo("fresh");
                        assertThat(rearm.getDirectory()).isEqualTo("/buckets/b");
                        assertThat(rearm.getEvent().getNewEntry()).as("the entry as listed").isEqualTo(listed);
                    }));
            assertThat(f.committedTasks()).as("no task for an object due in a day, in the same transaction").isEmpty();
        }
    }

    @Test
    void shouldLogAndSkipARecordThatIsNotABucketTask(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = new ProcessorFixture(cluster, ns, "poison", Map.of())) {
            dueBucket(f.emulator.s3(), "b", 10);
            f.publishRaw("b", "{not json".getBytes());
            f.publishRaw("b", "{\"action\":\"processBucket\"}".getBytes());
            f.publish(ProcessorFixture.steady("b", "scan-after-poison"));
            f.startProcessor();

            await().atMost(Duration.ofSeconds(60)).until(() -> f.finished("b", "scan-after-poison"));

            assertThat(f.awaitCommittedTasks(10)).hasSize(10);
        }
    }

    /**
     * A child-process bucket processor is killed with SIGKILL in the middle of a walk; a second one takes over from
     * the committed offsets. The walk completes, and the committed output holds one task per object: no page lost,
     * none twice.
     */
    @Test
    void shouldFinishAWalkAcrossAKillNineWithEveryTaskCommittedOnce(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        int objects = 3_000;
        try (ProcessorFixture f = new ProcessorFixture(cluster, ns, "kill", Map.of("bucket-processor.page.size", "50",
                "bucket-processor.tasks.per.transaction", "1"))) {
            dueBucket(f.emulator.s3(), "b", objects);
            f.emulator.faults().setLatency(Duration.ofMillis(5));
            f.publish(ProcessorFixture.steady("b", "scan-kill"));

            ChildNode first = ChildNode.start(BucketProcessorChildMain.class, "256m", f.settingsArguments());
            try {
                await().atMost(Duration.ofSeconds(90)).until(() -> f.walk("b").map(s -> s.pages() >= 10).orElse(false));
            } finally {
                first.kill();
            }
            assertThat(f.finished("b", "scan-kill")).as("killed mid-walk").isFalse();

            ChildNode second = ChildNode.start(BucketProcessorChildMain.class, "256m", f.settingsArguments());
            try {
                await().atMost(Duration.ofSeconds(120)).until(() -> f.finished("b", "scan-kill"));
            } finally {
                second.close();
            }
            List<ObjectTask> committed = f.awaitCommittedTasks(objects);
            Map<String, Long> counts = countsByPath(committed);
            assertThat(counts).hasSize(objects);
            assertThat(counts.entrySet().stream().filter(e -> e.getValue() != 1).map(Map.Entry::getKey).toList())
                    .as("objects with other than one committed task").isEmpty();
            assertThat(committed.stream().map(ObjectTask::actionId).collect(Collectors.toMap(
                    Function.identity(), id -> 1, Integer::sum))).allSatisfy((id, n) -> assertThat(n).isEqualTo(1));
        }
    }
}
