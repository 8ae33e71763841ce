package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.testsupport.LocalClusterTest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * One comparison, one clock (architecture.md, invariant 7): an object's due instant comes from the filer's stamps, so
 * the object processor judges it on the filer's clock, whatever its own host's clock says; and a task that comes early
 * (its timer or walk ran on a host whose clock is ahead) is held until it is due, not dropped. Issue 29: the checker's
 * clock-skew fault.
 */
@LocalClusterTest
class ObjectProcessorClockTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int DAY_SECONDS = 3;
    private static final String RULE_ID = "one-day";
    private static final String ONE_DAY = "<LifecycleConfiguration><Rule><ID>" + RULE_ID + "</ID><Filter><Prefix>"
            + "</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>"
            + "</LifecycleConfiguration>";

    @Test
    void shouldJudgeDueOnTheFilersClockWhenTheProcessorsHostRunsAhead(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "clock-ahead", dayOf(DAY_SECONDS))) {
            Instant due = putAndPublish(f, "ahead");
            // Three lifecycle days ahead: by its own clock, the object has been due for two days already.
            f.startProcessor(Clock.offset(Clock.systemUTC(), Duration.ofSeconds(3L * DAY_SECONDS)));

            awaitDeleted(f, "ahead", due);
        }
    }

    @Test
    void shouldHoldATaskThatCameEarlyUntilItIsDueRatherThanDropIt(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        try (ProcessorFixture f = ProcessorFixture.start(cluster, ns, "came-early", dayOf(DAY_SECONDS))) {
            // A timer that fired early, on a replay host whose clock ran ahead: the task is in object-tasks before its
            // object is due, and the processor's own clock is right.
            Instant due = putAndPublish(f, "early");
            f.startProcessor();

            awaitDeleted(f, "early", due);
        }
    }

    private static Map<String, String> dayOf(int seconds) {
        return Map.of("lifecycle.day.seconds", String.valueOf(seconds), "lifecycle.due.policy", "exact",
                "lifecycle.test.mode", "true");
    }

    /** An object under a one-day expiration, and its task published at once, a day before it is due. */
    private static Instant putAndPublish(ProcessorFixture f, String bucket) throws Exception {
        S3Gateway s3 = f.emulator.s3();
        s3.createBucket(bucket, false);
        s3.putLifecycle(bucket, ONE_DAY);
        s3.putObject(bucket, "k", 10, Map.of(), Map.of());
        var latest = s3.latest(bucket, "k").orElseThrow();
        Instant modTime = S3Entries.modTime(latest.entry());
        RuleSet rules = f.config.ruleReader().read(ONE_DAY);
        Instant due = rules.rule(RULE_ID).orElseThrow().dueAt(ActionKind.EXPIRATION_DAYS, modTime, null,
                rules.calendar()).orElseThrow();
        f.publish(List.of(ProcessorFixture.task(bucket, "k", "", "EXPIRATION_DAYS", "expire",
                LifecycleDeleteHandler.identity(latest.entry()), RULE_ID, f.ruleHash(ONE_DAY, RULE_ID), modTime)));
        return due;
    }

    /** Not deleted before it is due by the filer's clock (the system's here), and deleted once it is. */
    private static void awaitDeleted(ProcessorFixture f, String bucket, Instant due) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(20)).until(() -> f.emulator.s3().latest(bucket, "k")
                .isEmpty() || Instant.now().isAfter(due.plusSeconds(20)));
        assertThat(f.emulator.s3().latest(bucket, "k")).as("deleted once due").isEmpty();
        assertThat(Instant.now()).as("deleted no earlier than due").isAfterOrEqualTo(due);
        f.awaitAllCommitted(WAIT);
        assertThat(f.outcomesByAction().values()).singleElement()
                .satisfies(outcomes -> assertThat(outcomes).endsWith("DONE"));
        assertThat(f.deadLetters()).isEmpty();
    }
}
