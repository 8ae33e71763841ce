package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.grpc.Status;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.DeadLetter;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/**
 * Trust at the moment of action (architecture.md, invariants 5 and 6): every task is checked against the bucket's rules
 * as they are now before anything is deleted, an answer that means "not now" is followed up, the server's faults are
 * retried while its refusals park, an upload a completion left behind is never aborted, and tasks lost to retention are
 * reported, not skipped in silence.
 */
@LocalClusterTest
class ObjectProcessorRecheckTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private static String rules(String status, String date) {
        return ProcessorFixture.RULES.replace("<Status>Enabled</Status>", "<Status>" + status + "</Status>")
                .replace("2000-01-01T00:00:00Z", date);
    }

    @Test
    void shouldDeleteNothingTheRulesAsTheyAreNowNoLongerAllow(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "rules-now", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            List<String> buckets = List.of("unchanged", "rule-renamed", "config-deleted", "rule-disabled",
                    "rule-lengthened", "rule-replaced");
            for (String bucket : buckets) {
                s3.createBucket(bucket, false);
                s3.putObject(bucket, "k", 10, Map.of(), Map.of());
            }
            List<ObjectTask> tasks = buckets.stream().map(b -> f.expiration(b, "k")).toList();
            // Decided under the rules of the moment; the rules change while the tasks wait in object-tasks.
            s3.deleteLifecycle("config-deleted");
            s3.putLifecycle("rule-disabled", rules("Disabled", "2000-01-01T00:00:00Z"));
            s3.putLifecycle("rule-lengthened", rules("Enabled", "2999-01-01T00:00:00Z"));
            s3.putLifecycle("rule-replaced", rules("Enabled", "2999-01-01T00:00:00Z")
                    .replace(ProcessorFixture.RULE_ID, "another-id"));
            // Issue 43, item 2: re-PUT with a new ID and the same content (tools that regenerate IDs do so).
            s3.putLifecycle("rule-renamed", ProcessorFixture.RULES.replace(ProcessorFixture.RULE_ID, "regenerated"));
            f.publish(tasks);
            f.startProcessor();

            f.awaitAllCommitted(WAIT);
            Map<String, List<String>> outcomes = f.outcomesByAction();
            for (int i = 0; i < 2; i++) {
                assertThat(outcomes.get(tasks.get(i).actionId())).as(buckets.get(i)).containsExactly("DONE");
                assertThat(s3.latest(buckets.get(i), "k")).as(buckets.get(i)).isEmpty();
            }
            assertThat(f.events()).filteredOn(e -> e.actionId().equals(tasks.get(1).actionId()))
                    .singleElement().extracting(e -> e.reason()).asString()
                    .contains("allowed under rule \"regenerated\"");
            for (int i = 2; i < buckets.size(); i++) {
                assertThat(outcomes.get(tasks.get(i).actionId())).as(buckets.get(i))
                        .containsExactly("NOOP_RULE_CHANGED");
                assertThat(s3.latest(buckets.get(i), "k")).as(buckets.get(i)).isPresent();
            }
            assertThat(f.events()).filteredOn(e -> e.outcome().equals("NOOP_RULE_CHANGED"))
                    .extracting(e -> e.reason())
                    .anySatisfy(r -> assertThat(r).contains("no lifecycle configuration now"))
                    .anySatisfy(r -> assertThat(r).contains("is disabled"))
                    .anySatisfy(r -> assertThat(r).contains("was changed"))
                    .anySatisfy(r -> assertThat(r).contains("is no longer in the configuration"));
            assertThat(f.deadLetters()).isEmpty();
        }
    }

    /**
     * Issue 29, found while sizing the checker's race window: the rules were checked once, before a call the gateway
     * did not answer (UNAVAILABLE), and the call was retried for as long as it took, with the configuration removed
     * meanwhile. Each try at the gateway now comes after a check of the rules as they are then.
     */
    @Test
    void shouldCheckTheRulesAgainBeforeEachTryAtAGatewayThatDidNotAnswer(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "rules-retried", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            f.emulator.faults().fail("LifecycleDelete", Status.Code.UNAVAILABLE, 1_000);
            ObjectTask task = f.expiration("b", "k");
            f.publish(List.of(task));
            f.startProcessor();
            await().atMost(WAIT).until(() -> f.emulator.faults().failuresLeft("LifecycleDelete") < 1_000);

            s3.deleteLifecycle("b");
            Thread.sleep(1_500);   // longer than the rules are reused (object-processor.rules.max.age.ms, 1 s)
            f.emulator.faults().clearFailures();

            f.awaitAllCommitted(WAIT);
            assertThat(f.outcomesByAction().get(task.actionId())).containsExactly("NOOP_RULE_CHANGED");
            assertThat(s3.latest("b", "k")).isPresent();
        }
    }

    /**
     * Issue 29, found by the model-based checker (seed 105): a walk of a key listed a version a moment before another
     * task deleted it; the walk's task, answered NOT_FOUND, was retried for minutes, and the key's later tasks waited
     * behind it in the key's lane — expirations lost. A version that a fresh read shows gone owes nothing.
     */
    @Test
    void shouldFinishAWalksTaskWhoseVersionIsGoneAndLetTheKeysNextTaskRun(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String noncurrent = "<LifecycleConfiguration><Rule><ID>old</ID><Filter><Prefix></Prefix></Filter>"
                + "<Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                + "</NoncurrentVersionExpiration></Rule></LifecycleConfiguration>";
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "walked-gone", Map.of(
                "object-processor.retry-later.max.attempts", "3"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("v", false);
            s3.setVersioning("v", io.tidemark.lifecycle.engine.BucketVersioning.ENABLED);
            s3.putLifecycle("v", noncurrent);
            String first = s3.putObject("v", "k", 10, Map.of(), Map.of());
            String second = s3.putObject("v", "k", 11, Map.of(), Map.of());
            s3.putObject("v", "k", 12, Map.of(), Map.of());
            f.age("v", "k", Duration.ofDays(3));
            ObjectTask listed = f.noncurrent("v", "k", first, noncurrent, "old");
            ObjectTask fromTheWalk = new ObjectTask(listed.actionId(), listed.action(), listed.kind(), listed.target(),
                    new ObjectTask.Details(listed.details().expectedIdentity(), listed.details().ruleId(),
                            listed.details().ruleHash(), listed.details().dueAt(), "walker",
                            OutcomePolicy.RECHECK_SCAN + "earlier-action", listed.details().modTime(),
                            listed.details().noncurrentSince()));
            s3.deleteVersion("v", "k", first);   // deleted by another task between the walk's listing and its task
            ObjectTask next = f.noncurrent("v", "k", second, noncurrent, "old");
            f.publish(List.of(fromTheWalk, next));
            f.startProcessor();

            f.awaitAllCommitted(WAIT);
            Map<String, List<String>> outcomes = f.outcomesByAction();
            assertThat(outcomes.get(fromTheWalk.actionId())).containsExactly("NOOP_RESOLVED");
            assertThat(outcomes.get(next.actionId())).containsExactly("DONE");
            assertThat(s3.version("v", "k", second)).isEmpty();
            assertThat(f.deadLetters()).isEmpty();
        }
    }

    /**
     * Issue 29, found by the model-based checker (seed 514): the rules the re-check reused were read a moment before
     * a configuration that added a rule, and a task decided under that new rule was dropped as NOOP_RULE_CHANGED ("no
     * longer in the configuration") — nothing re-armed it, and the expiration was lost. A "changed" from reused rules is
     * now confirmed by reading them again.
     */
    @Test
    void shouldReadTheRulesAgainBeforeDroppingATaskWhoseRuleTheReusedRulesDoNotKnow(LocalCluster cluster,
                                                                                 ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "rules-reused", Map.of(
                "object-processor.rules.max.age.ms", "60000"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "first", 10, Map.of(), Map.of());
            s3.putObject("b", "second", 10, Map.of(), Map.of());
            ObjectTask first = f.expiration("b", "first");
            f.publish(List.of(first));
            f.startProcessor();
            f.awaitAllCommitted(WAIT);   // the processor now holds the bucket's rules, for a minute

            String added = ProcessorFixture.RULES.replace(ProcessorFixture.RULE_ID, "added");
            s3.putLifecycle("b", added);
            var latest = s3.latest("b", "second").orElseThrow();
            ObjectTask decidedUnderTheNewRule = ProcessorFixture.task("b", "second", "", "EXPIRATION_DATE", "expire",
                    LifecycleDeleteHandler.identity(latest.entry()), "added", f.ruleHash(added, "added"),
                    S3Entries.modTime(latest.entry()));
            f.publish(List.of(decidedUnderTheNewRule));

            f.awaitAllCommitted(WAIT);
            assertThat(f.outcomesByAction().get(first.actionId())).containsExactly("DONE");
            assertThat(f.outcomesByAction().get(decidedUnderTheNewRule.actionId())).containsExactly("DONE");
            assertThat(s3.latest("b", "second")).isEmpty();
        }
    }

    /** The reproduction of the trust issue: parked, the configuration deleted, then `tidemark dlq replay`. */
    @Test
    void shouldNotDeleteOnADeadLetterReplayWhatTheRulesNoLongerAllow(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "replay-after-removal", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            f.emulator.faults().force("b", "k", LifecycleDeleteOutcome.BLOCKED, "gateway said no");
            ObjectTask task = f.expiration("b", "k");
            f.publish(List.of(task));
            f.startProcessor();
            f.awaitAllCommitted(WAIT);
            assertThat(f.deadLetters()).hasSize(1);

            s3.deleteLifecycle("b");
            f.emulator.faults().clearAll();
            DeadLetters deadLetters = new DeadLetters(f.config);
            assertThat(deadLetters.replay(deadLetters.read(WAIT), Clock.systemUTC()).sent()).hasSize(1);
            f.awaitAllCommitted(WAIT);

            assertThat(f.outcomesByAction().get(task.actionId()))
                    .containsExactly("BLOCKED", "PARKED", "REPLAYED", "NOOP_RULE_CHANGED");
            assertThat(s3.latest("b", "k")).as("the rules no longer allow it: kept").isPresent();
            assertThat(deadLetters.read(WAIT)).as("replayed: no longer parked").isEmpty();
        }
    }

    @Test
    void shouldAskForAWalkOfTheKeyWhenTheAnswerMeansNotNow(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "not-now", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("locked", true);
            s3.putObject("locked", "logs/held", 10, Map.of(), Map.of());
            ObjectTask decidedBeforeTheHold = f.expiration("locked", "logs/held");
            s3.putLegalHold("locked", "logs/held", null, true);
            ObjectTask underHold = f.expiration("locked", "logs/held");
            s3.createBucket("b", false);
            s3.putObject("b", "unreadable", 10, Map.of(), Map.of());
            f.emulator.faults().force("b", "unreadable", LifecycleDeleteOutcome.NOOP_RESOLVED, "NOT_FOUND");
            ObjectTask unreadable = f.expiration("b", "unreadable");
            f.publish(List.of(decidedBeforeTheHold, underHold, unreadable));
            f.startProcessor();

            f.awaitAllCommitted(WAIT);
            Map<String, List<String>> outcomes = f.outcomesByAction();
            assertThat(outcomes.get(decidedBeforeTheHold.actionId())).containsExactly("NOOP_RESOLVED");
            assertThat(outcomes.get(underHold.actionId())).containsExactly("SKIPPED_OBJECT_LOCK");
            assertThat(outcomes.get(unreadable.actionId())).containsExactly("NOOP_RESOLVED");
            await().atMost(WAIT).until(() -> f.walks().size() == 3);
            assertThat(f.walks()).allSatisfy(w -> {
                assertThat(w.details().mode()).isEqualTo(BucketTask.Mode.recovery);
                assertThat(w.details().marker()).isNull();
            }).extracting(w -> w.target().bucket() + "/" + w.details().prefix() + " " + w.details().scanId())
                    .containsExactlyInAnyOrder(
                            "locked/logs/held recheck-" + decidedBeforeTheHold.actionId(),
                            "locked/logs/held recheck-" + underHold.actionId(),
                            "b/unreadable recheck-" + unreadable.actionId());
            assertThat(s3.latest("locked", "logs/held")).isPresent();
        }
    }

    @Test
    void shouldRetryWhatTheServerFailedOnAndParkOnlyWhatItRefused(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "faults", Map.of(
                "object-processor.fault.max.attempts", "6"))) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            for (String key : List.of("restart", "refused")) {
                s3.putObject("b", key, 10, Map.of(), Map.of());
            }
            // A gateway restarting: streams reset (CANCELLED), then errors (UNKNOWN), then nobody home (UNAVAILABLE).
            // Started first: the check it makes of the gateway at start would take one of the failures.
            f.startProcessor();
            f.emulator.faults().fail("LifecycleDelete", Status.Code.CANCELLED, 2);
            ObjectTask restart = f.expiration("b", "restart");
            f.publish(List.of(restart));
            await().atMost(WAIT).until(() -> f.outcomesByAction().getOrDefault(restart.actionId(), List.of())
                    .contains("RPC_ERROR"));
            f.emulator.faults().fail("LifecycleDelete", Status.Code.UNKNOWN, 2);
            f.emulator.faults().setUnavailableProbability(0.5);
            await().atMost(WAIT).until(() -> s3.latest("b", "restart").isEmpty());
            f.emulator.faults().clearAll();
            f.awaitAllCommitted(WAIT);
            assertThat(f.outcomesByAction().get(restart.actionId())).endsWith("DONE").doesNotContain("PARKED");

            f.emulator.faults().fail("LifecycleDelete", Status.Code.INVALID_ARGUMENT, 1);
            ObjectTask refused = f.expiration("b", "refused");
            f.publish(List.of(refused));
            f.awaitAllCommitted(WAIT);
            assertThat(f.outcomesByAction().get(refused.actionId())).containsExactly("RPC_ERROR", "PARKED");
            assertThat(f.deadLetters()).singleElement().satisfies(d -> {
                assertThat(d.task().actionId()).isEqualTo(refused.actionId());
                assertThat(d.attempts()).isEqualTo(1);
                assertThat(d.reason()).contains("INVALID_ARGUMENT");
            });
        }
    }

    @Test
    void shouldShowHowLongTheOldestCallHasWaitedWhenTheGatewayDoesNotAnswer(LocalCluster cluster,
                                                                          ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "unreachable", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "k", 10, Map.of(), Map.of());
            ObjectTask task = f.expiration("b", "k");
            f.publish(List.of(task));
            f.emulator.faults().setUnavailableProbability(1.0);
            f.startProcessor();

            await().atMost(WAIT).until(() -> {
                Double oldest = f.meter("tidemark.object.processor.oldest.call.seconds");
                return oldest != null && oldest >= 2.0;
            });
            assertThat(f.events()).as("no outcome while nobody answers").isEmpty();
            // The task is read but not done: the committed lag (what the lag alert reads) counts it.
            await().atMost(WAIT).until(() -> f.meter("tidemark.consumer.group.committed.lag") == 1.0);
            f.emulator.faults().clearAll();
            f.awaitAllCommitted(WAIT);
            await().atMost(WAIT).until(() -> f.meter("tidemark.object.processor.oldest.call.seconds") == 0.0);
            await().atMost(WAIT).until(() -> f.meter("tidemark.consumer.group.committed.lag") == 0.0);
            assertThat(s3.latest("b", "k")).isEmpty();
        }
    }

    @Test
    void shouldNeverAbortTheUploadDirectoryACompletedUploadLeftBehind(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "leftover", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.setCompletionLeavesUpload(true);
            String completed = s3.createUpload("b", "videos/big");
            s3.uploadPart("b", completed, 1, 5_000);
            s3.uploadPart("b", completed, 2, 3_000);
            s3.completeUpload("b", completed);
            String forgotten = s3.createUpload("b", "videos/forgotten");
            s3.uploadPart("b", forgotten, 1, 1_000);
            ObjectTask leftover = f.abort("b", completed);
            ObjectTask abandoned = f.abort("b", forgotten);
            f.publish(List.of(leftover, abandoned));
            f.startProcessor();

            f.awaitAllCommitted(WAIT);
            assertThat(f.outcomesByAction().get(abandoned.actionId())).containsExactly("DONE");
            assertThat(f.emulator.store().lookup(s3.uploadsDirectory("b"), forgotten)).isEmpty();
            assertThat(f.outcomesByAction().get(leftover.actionId()))
                    .containsExactly("UPLOAD_COMPLETED_LEFTOVER", "PARKED");
            assertThat(f.deadLetters()).singleElement().satisfies(d -> {
                assertThat(d.outcome()).isEqualTo("UPLOAD_COMPLETED_LEFTOVER");
                assertThat(d.reason()).contains("videos/big");
            });
            var object = s3.latest("b", "videos/big").orElseThrow().entry();
            assertThat(object.getChunksCount()).isEqualTo(2);
            assertThat(f.emulator.store().deletedChunks(object)).as("the object's data survives").isEmpty();
            assertThat(f.emulator.store().lookup(s3.uploadsDirectory("b"), completed)).isPresent();
        }
    }

    @Test
    void shouldSayLoudlyWhenRetentionDeletedTasksBeforeTheyWereProcessed(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "lost", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            s3.putObject("b", "first", 10, Map.of(), Map.of());
            ObjectTask first = f.expiration("b", "first");
            int partition = f.shard(ProcessorFixture.key(first));
            f.publish(List.of(first));
            ObjectProcessorService processor = f.startProcessor();
            f.awaitAllCommitted(WAIT);
            processor.close();

            // While the processor is down, tasks arrive and retention deletes them unprocessed.
            String lostKey = keyOnPartition(f, "b", partition, "lost-");
            s3.putObject("b", lostKey, 10, Map.of(), Map.of());
            long end = f.publish(List.of(f.expiration("b", lostKey))).get(0) + 1;
            try (Admin admin = Admin.create(f.config.adminProperties())) {
                admin.deleteRecords(Map.of(new TopicPartition(f.topics.objectTasks().name(), partition),
                        RecordsToDelete.beforeOffset(end))).all().get();
            }
            String laterKey = keyOnPartition(f, "b", partition, "later-");
            s3.putObject("b", laterKey, 10, Map.of(), Map.of());
            f.publish(List.of(f.expiration("b", laterKey)));
            f.startProcessor();

            await().atMost(WAIT).until(() -> s3.latest("b", laterKey).isEmpty());
            assertThat(f.meter("tidemark.object.processor.offsets.lost")).isEqualTo(1.0);
            assertThat(s3.latest("b", lostKey)).as("deleted by retention before anyone processed it").isPresent();
        }
    }

    /**
     * Issue 27 items 4 and 5: neither the identity check nor the gateway can see a version's rank or whether it is
     * latest again; the processor reads the key's versions right before a noncurrent delete.
     */
    @Test
    void shouldNotDeleteANoncurrentVersionWhoseRankOrRoleChangedSinceTheDecision(LocalCluster cluster,
                                                                               ClusterNamespace ns) throws Exception {
        String keepOne = "<LifecycleConfiguration><Rule><ID>keep-one</ID><Filter><Prefix></Prefix></Filter>"
                + "<Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                + "<NewerNoncurrentVersions>1</NewerNoncurrentVersions></NoncurrentVersionExpiration></Rule>"
                + "</LifecycleConfiguration>";
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "ranks", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("v", false);
            s3.setVersioning("v", io.tidemark.lifecycle.engine.BucketVersioning.ENABLED);
            s3.putLifecycle("v", keepOne);
            List<String> k = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) {
                k.add(s3.putObject("v", "k", 10 + i, Map.of(), Map.of()));
                Thread.sleep(1_100);   // versions a second apart, as the gateway orders them by modification time
            }
            f.age("v", "k", Duration.ofDays(3));
            // Noncurrent now: k[2] (rank 0, kept), k[1] (rank 1) and k[0] (rank 2), both decided due.
            ObjectTask rankOne = f.noncurrent("v", "k", k.get(1), keepOne, "keep-one");
            ObjectTask rankTwo = f.noncurrent("v", "k", k.get(0), keepOne, "keep-one");
            s3.deleteVersion("v", "k", k.get(2));   // k[1] is now the newest noncurrent version: the rule keeps it
            String j1 = s3.putObject("v", "j", 1, Map.of(), Map.of());
            String j2 = s3.putObject("v", "j", 2, Map.of(), Map.of());
            ObjectTask latestAgain = f.noncurrent("v", "j", j1, keepOne, "keep-one");
            s3.deleteVersion("v", "j", j2);   // j1 is the current version again
            // Issue 35 item 7: a null version made current by a suspended write has no pointer naming it, and the
            // gateway's guard reads the pointer alone: asked, it would delete the current object.
            s3.putObject("v", "n", 1, Map.of(), Map.of());
            s3.setVersioning("v", io.tidemark.lifecycle.engine.BucketVersioning.SUSPENDED);
            s3.putObject("v", "n", 2, Map.of(), Map.of());
            s3.setVersioning("v", io.tidemark.lifecycle.engine.BucketVersioning.ENABLED);
            ObjectTask currentNull = f.noncurrent("v", "n", "null", keepOne, "keep-one");
            f.publish(List.of(rankOne, rankTwo, latestAgain, currentNull));
            f.startProcessor();

            f.awaitAllCommitted(WAIT);
            Map<String, List<String>> outcomes = f.outcomesByAction();
            assertThat(outcomes.get(rankOne.actionId())).containsExactly("NOOP_VERSION_CHANGED");
            assertThat(outcomes.get(rankTwo.actionId())).containsExactly("DONE");
            assertThat(outcomes.get(latestAgain.actionId())).containsExactly("NOOP_VERSION_CHANGED");
            assertThat(outcomes.get(currentNull.actionId())).containsExactly("NOOP_VERSION_CHANGED");
            assertThat(s3.latest("v", "n").orElseThrow().versionId()).isEqualTo("null");
            assertThat(s3.version("v", "k", k.get(1))).isPresent();
            assertThat(s3.version("v", "k", k.get(0))).isEmpty();
            assertThat(s3.version("v", "j", j1)).isPresent();
            assertThat(f.events()).filteredOn(e -> e.outcome().equals("NOOP_VERSION_CHANGED"))
                    .extracting(e -> e.reason())
                    .anySatisfy(r -> assertThat(r).contains("ranks 0").contains("keeps the newest 1"))
                    .anySatisfy(r -> assertThat(r).contains("is the current version"));
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

    @Test
    void shouldKeepParkedTasksUntilReplayedOrPurged(LocalCluster cluster, ClusterNamespace ns) throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "kept", Map.of())) {
            S3Gateway s3 = f.emulator.s3();
            s3.createBucket("b", false);
            for (String key : List.of("one", "two")) {
                s3.putObject("b", key, 10, Map.of(), Map.of());
                f.emulator.faults().force("b", key, LifecycleDeleteOutcome.BLOCKED, "no");
            }
            ObjectTask one = f.expiration("b", "one");
            ObjectTask two = f.expiration("b", "two");
            f.publish(List.of(one, two, f.expiration("b", "one")));
            f.startProcessor();
            f.awaitAllCommitted(WAIT);
            DeadLetters deadLetters = new DeadLetters(f.config);
            assertThat(deadLetters.read(WAIT)).hasSize(3);

            List<DeadLetters.Parked> purged = deadLetters.purge(deadLetters.read(WAIT).stream()
                    .filter(p -> p.letter().task().actionId().equals(two.actionId())).toList(), Clock.systemUTC());
            assertThat(purged).hasSize(1);
            assertThat(deadLetters.read(WAIT)).extracting(p -> p.letter().task().target().objectPath())
                    .containsOnly("one");
            assertThat(f.outcomesByAction().get(two.actionId())).containsExactly("BLOCKED", "PARKED", "PURGED");
            assertThat(f.deadLetters()).extracting(DeadLetter::outcome).containsOnly("BLOCKED").hasSize(2);
        }
    }
}
