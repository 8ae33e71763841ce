package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.DeadLetter;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.service.ServiceState;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The object processor against a real broker and the emulator's LifecycleDelete. */
@LocalClusterTest
class ObjectProcessorServiceTest {

    @Test
    void shouldFinishEachTaskByItsOutcomeAndParkWhatCannotFinish(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "outcomes",
                Map.of("object-processor.retry-later.max.attempts", "3"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("plain", false);
            s3.createBucket("locked", true);
            for (String key : List.of("expire-me", "drifted", "blocked")) {
                s3.putObject("plain", key, 10, Map.of(), Map.of());
            }
            s3.putObject("locked", "held", 10, Map.of(), Map.of());
            s3.putLegalHold("locked", "held", null, true);

            ObjectTask done = f.expiration("plain", "expire-me");
            ObjectTask stale = f.expiration("plain", "drifted");
            s3.drift("plain", "drifted", null);
            ObjectTask skipped = f.expiration("locked", "held");
            ObjectTask blocked = f.expiration("plain", "blocked");
            f.emulator.faults().force("plain", "blocked", LifecycleDeleteOutcome.BLOCKED, "FATAL_EVENT_ERROR: test");
            f.publish(List.of(done, stale, skipped, blocked));
            f.startProcessor();

            f.awaitAllCommitted(Duration.ofSeconds(60));
            assertThat(s3.latest("plain", "expire-me")).isEmpty();
            assertThat(s3.latest("plain", "drifted")).as("identity changed: kept").isPresent();
            assertThat(s3.latest("locked", "held")).as("legal hold: kept").isPresent();
            assertThat(s3.latest("plain", "blocked")).isPresent();
            Map<String, List<String>> outcomes = f.outcomesByAction();
            assertThat(outcomes.get(done.actionId())).containsExactly("DONE");
            assertThat(outcomes.get(stale.actionId())).containsExactly("NOOP_RESOLVED");
            assertThat(outcomes.get(skipped.actionId())).containsExactly("SKIPPED_OBJECT_LOCK");
            assertThat(outcomes.get(blocked.actionId())).containsExactly("BLOCKED", "PARKED");
            // How late each finished task was: in its audit record and in the histogram, by path and outcome (a walk
            // that is not a steady one is a recovery walk, measured apart from the objective).
            assertThat(f.events()).filteredOn(e -> e.actionId().equals(done.actionId())).singleElement()
                    .satisfies(e -> {
                        assertThat(e.dueAt()).isEqualTo(done.details().dueAt());
                        assertThat(e.lateness()).hasValueSatisfying(late -> assertThat(late)
                                .isGreaterThan(Duration.ofDays(365)));
                    });
            assertThat(f.meters.get("tidemark.object.processor.lateness").tags("path", "recovery", "outcome", "DONE",
                    "bucket", LatenessSettings.OTHER).timer().count()).isEqualTo(1);
            assertThat(f.meters.get("tidemark.object.processor.lateness").tags("path", "recovery", "outcome",
                    "SKIPPED_OBJECT_LOCK").timer().count()).isEqualTo(1);
            assertThat(f.meters.find("tidemark.object.processor.slo.deletes").counters())
                    .as("no timer's delete: every result still at 0").allSatisfy(c -> assertThat(c.count()).isZero());
            assertThat(f.deadLetters()).singleElement().satisfies(d -> {
                assertThat(d.task().actionId()).isEqualTo(blocked.actionId());
                assertThat(d.outcome()).isEqualTo("BLOCKED");
                assertThat(d.reason()).contains("FATAL_EVENT_ERROR");
                assertThat(d.attempts()).isEqualTo(1);
                assertThat(d.source()).contains("object-tasks/");
            });
        }
    }

    @Test
    void shouldHoldAnObjectOnRetryLaterThenParkItWhileOtherObjectsGoOn(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "retry-later", Map.of(
                "object-processor.retry-later.max.attempts", "8",
                "object-processor.retry.backoff.initial.ms", "1000",
                "object-processor.retry.backoff.max.ms", "1000"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "stuck", 10, Map.of(), Map.of());
            List<String> others = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                others.add("other-" + i);
                s3.putObject("b", "other-" + i, 10, Map.of(), Map.of());
            }
            f.emulator.faults().force("b", "stuck", LifecycleDeleteOutcome.RETRY_LATER, "PENDING_LATEST_POINTER");
            ObjectTask first = f.expiration("b", "stuck");
            // A second task of the same object, written after the first: it must wait for the first to finish.
            ObjectTask second = f.expiration("b", "stuck");
            int partition = f.shard(ProcessorFixture.key(first));
            // Objects on the stuck one's partition, before and after it: the cursor goes up to it and no further.
            String before = keyOnPartition(f, "b", partition, "before-");
            String after = keyOnPartition(f, "b", partition, "after-");
            for (String key : List.of(before, after)) {
                others.add(key);
                s3.putObject("b", key, 10, Map.of(), Map.of());
            }
            f.publish(List.of(f.expiration("b", before)));
            long firstOffset = f.publish(List.of(first)).get(0);
            f.publish(others.stream().filter(k -> !k.equals(before)).map(k -> f.expiration("b", k)).toList());
            f.publish(List.of(second));
            f.startProcessor();

            await().atMost(Duration.ofSeconds(30)).until(() -> others.stream().allMatch(k -> s3.latest("b", k).isEmpty()));
            // The held task holds its partition's cursor: what came before it is committed, nothing at or past it.
            await().atMost(Duration.ofSeconds(10)).until(() -> f.committedOffsets().getOrDefault(partition, -1L)
                    == firstOffset);
            // Five commit intervals, well within the held task's 7 waits of at least 500 ms: a cursor that were to pass
            // it would have by now.
            Thread.sleep(500);
            assertThat(f.committedOffsets().get(partition)).isEqualTo(firstOffset);

            f.awaitAllCommitted(Duration.ofSeconds(60));
            Map<String, List<String>> outcomes = f.outcomesByAction();
            assertThat(outcomes.get(first.actionId()))
                    .containsExactly("RETRY_LATER", "RETRY_LATER", "RETRY_LATER", "RETRY_LATER", "RETRY_LATER",
                            "RETRY_LATER", "RETRY_LATER", "RETRY_LATER", "PARKED");
            // The second task ran only after the first was parked, and met the same answer.
            List<LifecycleEvent> events = f.events();
            int parkedAt = indexOf(events, first.actionId(), "PARKED");
            int secondAt = indexOf(events, second.actionId(), "RETRY_LATER");
            assertThat(secondAt).isGreaterThan(parkedAt);
            assertThat(f.deadLetters()).extracting(DeadLetter::outcome).containsOnly("RETRY_LATER");
            assertThat(f.deadLetters()).filteredOn(d -> d.task().actionId().equals(first.actionId()))
                    .singleElement().satisfies(d -> {
                        assertThat(d.attempts()).isEqualTo(8);
                        assertThat(d.firstFailure()).isBefore(d.lastFailure());
                    });
        }
    }

    @Test
    void shouldParkPoisonRecordsAndInvalidTasksAndGoOn(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "poison", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("v", false);
            s3.setVersioning("v", io.tidemark.lifecycle.engine.BucketVersioning.ENABLED);
            String v1 = s3.putObject("v", "k", 10, Map.of(), Map.of());
            s3.putObject("v", "k", 11, Map.of(), Map.of());
            ObjectTask valid = f.expiration("v", "k");
            // An expiration naming a version would, on the real gateway, put a marker on whatever is latest.
            ObjectTask namesVersion = new ObjectTask("names-version", "expire", "EXPIRATION_DAYS",
                    new ObjectTask.Target("v", "k", v1), valid.details());
            ObjectTask noIdentity = new ObjectTask("no-identity", "expire", "EXPIRATION_DAYS",
                    new ObjectTask.Target("v", "k", ""), new ObjectTask.Details(null, "r", null, Instant.now(),
                    "replay", null));
            String key = ProcessorFixture.key(valid);
            f.publishRaw(key, "{not json".getBytes(StandardCharsets.UTF_8)).get();
            f.publish(List.of(namesVersion, noIdentity, valid));
            f.startProcessor();

            f.awaitAllCommitted(Duration.ofSeconds(60));
            assertThat(f.outcomesByAction().get(valid.actionId())).containsExactly("DONE");
            assertThat(s3.latest("v", "k").orElseThrow().deleteMarker()).isTrue();
            assertThat(s3.version("v", "k", v1)).as("the named version is untouched").isPresent();
            assertThat(f.deadLetters()).extracting(DeadLetter::outcome).containsOnly("INVALID");
            assertThat(f.deadLetters()).extracting(DeadLetter::reason).anySatisfy(r -> assertThat(r)
                    .contains("not a readable object task"))
                    .anySatisfy(r -> assertThat(r).contains("must name no version"))
                    .anySatisfy(r -> assertThat(r).contains("no expected identity"));
            assertThat(f.deadLetters()).filteredOn(d -> d.task() == null).singleElement()
                    .satisfies(d -> assertThat(new String(java.util.Base64.getDecoder().decode(d.rawValue()),
                            StandardCharsets.UTF_8)).isEqualTo("{not json"));
        }
    }

    /**
     * Issue 44: a gateway without LifecycleDelete (SeaweedFS older than 4.24) answered UNIMPLEMENTED to every task,
     * each task was parked, and the processor reported ready all along. Now it is not ready while the gateway does not
     * answer, nor while it lacks the RPC, and holds the tasks meanwhile instead of parking them.
     */
    @Test
    void shouldStayUnreadyAndHoldTasksWhileTheGatewayLacksLifecycleDelete(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "unimplemented", Map.of(
                "object-processor.cluster.check.interval.ms", "300"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "first", 10, Map.of(), Map.of());
            s3.putObject("b", "second", 10, Map.of(), Map.of());
            f.emulator.faults().fail("LifecycleDelete", Status.Code.UNAVAILABLE, -1);
            ObjectTask first = f.expiration("b", "first");
            f.publish(List.of(first));
            ObjectProcessorService processor = f.startProcessor();
            assertThat(processor.state()).as("a gateway not answering yet is no reason to refuse")
                    .isEqualTo(ServiceState.RUNNING);
            // The loop polls and calls (the call is repeated until answered), and the processor is not ready.
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                Double oldest = f.meter("tidemark.object.processor.oldest.call.seconds");
                return oldest != null && oldest >= 1.0;
            });
            await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(() -> !processor.ready());
            f.emulator.faults().clearFailures();
            await().atMost(Duration.ofSeconds(30)).until(processor::ready);
            f.awaitAllCommitted(Duration.ofSeconds(60));
            assertThat(f.outcomesByAction().get(first.actionId())).containsExactly("DONE");

            // The gateway replaced by one without LifecycleDelete while the processor runs.
            f.emulator.faults().fail("LifecycleDelete", Status.Code.UNIMPLEMENTED, -1);
            await().atMost(Duration.ofSeconds(10)).until(() -> !processor.ready());
            ObjectTask second = f.expiration("b", "second");
            f.publish(List.of(second));
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() -> !processor.ready());
            assertThat(f.deadLetters()).as("held, not parked").isEmpty();
            assertThat(f.outcomesByAction()).doesNotContainKey(second.actionId());
            assertThat(s3.latest("b", "second")).isPresent();

            f.emulator.faults().clearFailures();
            await().atMost(Duration.ofSeconds(30)).until(processor::ready);
            f.awaitAllCommitted(Duration.ofSeconds(60));
            assertThat(f.outcomesByAction().get(second.actionId())).containsExactly("DONE");
            assertThat(s3.latest("b", "second")).isEmpty();
            assertThat(f.deadLetters()).isEmpty();
        }
    }

    @Test
    void shouldCompleteEveryTaskWhenAThirdOfCallsFailInTransport(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "unavailable", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            List<ObjectTask> tasks = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                s3.putObject("b", "k" + i, 10, Map.of(), Map.of());
                tasks.add(f.expiration("b", "k" + i));
            }
            f.emulator.faults().setUnavailableProbability(0.3);
            f.publish(tasks);
            ObjectProcessorService service = f.startProcessor();

            f.awaitAllCommitted(Duration.ofSeconds(90));
            for (int i = 0; i < 200; i++) {
                assertThat(s3.latest("b", "k" + i)).isEmpty();
            }
            assertThat(f.deadLetters()).isEmpty();
            assertThat(service.metrics().finishedCount("DONE")).isEqualTo(200);
            assertThat(f.outcomesByAction().values()).allSatisfy(o -> assertThat(o).containsExactly("DONE"));
        }
    }

    /**
     * An expiration decided on v1 that arrives after v2 was written: sent without a version ID, the gateway checks
     * v1's identity against the latest (v2), refuses, and v2 stays latest with no delete marker over it.
     */
    @Test
    void shouldNotHideANewerVersionWithAStaleExpiration(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "stale-version", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("v", false);
            s3.setVersioning("v", io.tidemark.lifecycle.engine.BucketVersioning.ENABLED);
            s3.putObject("v", "k", 10, Map.of(), Map.of());
            ObjectTask decidedOnV1 = f.expiration("v", "k");
            String v2 = s3.putObject("v", "k", 20, Map.of(), Map.of());
            f.publish(List.of(decidedOnV1));
            f.startProcessor();

            f.awaitAllCommitted(Duration.ofSeconds(60));
            assertThat(f.outcomesByAction().get(decidedOnV1.actionId())).containsExactly("NOOP_RESOLVED");
            assertThat(s3.latest("v", "k").orElseThrow().versionId()).isEqualTo(v2);
            assertThat(s3.latest("v", "k").orElseThrow().deleteMarker()).isFalse();
            assertThat(s3.versions("v", "k")).hasSize(2);
        }
    }

    @Test
    void shouldReplayParkedTasksOnRequestAndHarmlesslyTwice(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "replay",
                Map.of(ObjectProcessorSettings.DLQ_COUNT_INTERVAL_MS, "1000"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.createBucket("other", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            s3.putObject("other", "k", 10, Map.of(), Map.of());
            f.emulator.faults().force("b", "k", LifecycleDeleteOutcome.BLOCKED, "gateway said no");
            f.emulator.faults().force("other", "k", LifecycleDeleteOutcome.BLOCKED, "gateway said no");
            ObjectTask task = f.expiration("b", "k");
            ObjectTask otherTask = f.expiration("other", "k");
            f.publish(List.of(task, otherTask));
            f.startProcessor();
            f.awaitAllCommitted(Duration.ofSeconds(60));
            DeadLetters deadLetters = new DeadLetters(f.config);
            assertThat(deadLetters.read(Duration.ofSeconds(30))).hasSize(2);
            // What is parked now, as the processor counts it for operators: it falls after a replay, where the
            // counter of tasks ever parked does not.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(f.meters
                    .get("tidemark.object.processor.dlq.parked").gauge().value()).isEqualTo(2.0));

            f.emulator.faults().clearAll();
            List<DeadLetters.Parked> chosen = deadLetters.read(Duration.ofSeconds(30)).stream()
                    .filter(p -> "b".equals(p.bucket())).toList();
            assertThat(deadLetters.replay(chosen, java.time.Clock.systemUTC()).sent()).hasSize(1);
            f.awaitAllCommitted(Duration.ofSeconds(60));
            assertThat(s3.latest("b", "k")).isEmpty();
            assertThat(s3.latest("other", "k")).as("not chosen, not replayed").isPresent();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(f.meters
                    .get("tidemark.object.processor.dlq.parked").gauge().value()).isEqualTo(1.0));

            deadLetters.replay(chosen, java.time.Clock.systemUTC());
            f.awaitAllCommitted(Duration.ofSeconds(60));
            assertThat(f.outcomesByAction().get(task.actionId()))
                    .containsExactly("BLOCKED", "PARKED", "REPLAYED", "DONE", "REPLAYED", "NOOP_RESOLVED");
        }
    }

    private static String keyOnPartition(ProcessorFixture f, String bucket, int partition, String prefix) {
        for (int i = 0; ; i++) {
            String key = prefix + i;
            if (f.shard(io.tidemark.topics.ShardPartitioner.key(bucket, key)) == partition) {
                return key;
            }
        }
    }

    private static int indexOf(List<LifecycleEvent> events, String actionId, String outcome) {
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i).actionId().equals(actionId) && events.get(i).outcome().equals(outcome)) {
                return i;
            }
        }
        return -1;
    }
}
