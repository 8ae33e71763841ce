package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.ObjectVersionInfo;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.messages.ObjectTask;
import io.tidemark.objectprocessor.OutcomePolicy.Decision;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.zookeeper.Controls;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A noncurrent version's task judged against the key as it is now (architecture.md, invariants 5 and 8), one attempt
 * of the {@link ActionRunner} at a time against an in-process filer and gateway whose clock the test sets: no broker.
 */
class NoncurrentRecheckTest {

    private static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    private static final String NONCURRENT_ID = "noncurrent-1d";
    private static final String ONE_DAY = "<LifecycleConfiguration><Rule><ID>" + NONCURRENT_ID + "</ID><Filter><Prefix>"
            + "</Prefix></Filter><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>1"
            + "</NoncurrentDays></NoncurrentVersionExpiration></Rule></LifecycleConfiguration>";
    private static final String KEEP_ONE = "<LifecycleConfiguration><Rule><ID>keep-one</ID><Filter><Prefix></Prefix>"
            + "</Filter><Status>Enabled</Status><NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
            + "<NewerNoncurrentVersions>1</NewerNoncurrentVersions></NoncurrentVersionExpiration></Rule>"
            + "</LifecycleConfiguration>";

    private final MutableClock clock = new MutableClock(T0);
    private final FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), clock).start();
    private final S3Gateway s3 = emulator.s3();
    private final FilerClient filer = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT,
            Duration.ofSeconds(30));
    private final LifecycleDeleteClient gateway = LifecycleDeleteClient.connect(emulator.s3GrpcAddress(),
            GrpcTls.PLAINTEXT, Duration.ofSeconds(30));
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    private final ExecutorService checks = Executors.newSingleThreadExecutor();
    private final TidemarkConfig config = new TidemarkConfig(Map.of("lifecycle.due.policy", "exact"));
    private final ActionRunner runner = runner();

    private ActionRunner runner() {
        ObjectProcessorSettings settings = ObjectProcessorSettings.from(config);
        ObjectProcessorMetrics metrics = new ObjectProcessorMetrics(new SimpleMeterRegistry());
        // Read at every attempt, so that the filer's time is the one the test has just set.
        FilerClock filerTime = new FilerClock(filer::pingAsync, clock, System::nanoTime, Duration.ZERO);
        return new ActionRunner(new CurrentRules(filer, config.ruleReader(), Duration.ZERO, System::nanoTime),
                new UploadLeftovers(filer), new VersionCheck(filer), new DeleteCaller(gateway, scheduler, settings,
                metrics), new OutcomePolicy(3, 3), checks, filerTime,
                new BucketControls(() -> Optional.of(Controls.NONE), () -> 0), System::nanoTime);
    }

    @AfterEach
    void close() {
        scheduler.shutdownNow();
        checks.shutdownNow();
        gateway.close();
        filer.close();
        emulator.close();
    }

    /**
     * Issue 43, item 3: the null version carries no demotion stamp, so a task timed from its first demotion still
     * matches its identity after it was current again and demoted a second time; sent, it would be deleted a day after
     * its first demotion, hours after its second.
     */
    @Test
    void shouldNotDeleteANullVersionDemotedAgainBeforeItIsDueFromItsLastDemotion() throws Exception {
        s3.createBucket("b", false);
        s3.putLifecycle("b", ONE_DAY);
        s3.putObject("b", "k", 10, Map.of(), Map.of());   // the null version, written before versioning
        s3.setVersioning("b", BucketVersioning.ENABLED);
        Instant firstDemotion = advanceTo(T0.plus(Duration.ofHours(1)));
        String second = s3.putObject("b", "k", 11, Map.of(), Map.of());
        ObjectTask timedFromTheFirst = task("null", ONE_DAY, NONCURRENT_ID, firstDemotion);
        advanceTo(firstDemotion.plus(Duration.ofHours(2)));
        s3.deleteVersion("b", "k", second);   // the null version is current again
        Instant secondDemotion = advanceTo(firstDemotion.plus(Duration.ofHours(12)));
        s3.putObject("b", "k", 12, Map.of(), Map.of());

        advanceTo(firstDemotion.plus(Duration.ofDays(1)).plusSeconds(60));
        Decision early = attempt(timedFromTheFirst);

        assertThat(s3.version("b", "k", "null")).as("12 hours before it is due: kept").isPresent();
        assertThat(early.outcome()).isEqualTo(OutcomePolicy.NOOP_VERSION_CHANGED);
        assertThat(early.reason()).contains("version null of k was demoted again at " + secondDemotion)
                .contains("due at " + secondDemotion.plus(Duration.ofDays(1)));
        assertThat(early.walkTheKey()).as("its timer is re-armed from the key as it is now").isTrue();

        advanceTo(secondDemotion.plus(Duration.ofDays(1)));
        assertThat(attempt(timedFromTheFirst).outcome()).as("due from its last demotion").isEqualTo("DONE");
        assertThat(s3.version("b", "k", "null")).isEmpty();
    }

    /** The same for a version file: the gateway stamps it again when it is demoted again. */
    @Test
    void shouldNotDeleteAVersionDemotedAgainBeforeItIsDueFromItsLastDemotion() throws Exception {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        s3.putLifecycle("b", ONE_DAY);
        String first = s3.putObject("b", "k", 10, Map.of(), Map.of());
        Instant firstDemotion = advanceTo(T0.plus(Duration.ofHours(1)));
        String second = s3.putObject("b", "k", 11, Map.of(), Map.of());
        ObjectTask timedFromTheFirst = task(first, ONE_DAY, NONCURRENT_ID, firstDemotion);
        advanceTo(firstDemotion.plus(Duration.ofHours(2)));
        s3.deleteVersion("b", "k", second);   // the first version is current again
        Instant secondDemotion = advanceTo(firstDemotion.plus(Duration.ofHours(12)));
        s3.putObject("b", "k", 12, Map.of(), Map.of());

        advanceTo(firstDemotion.plus(Duration.ofDays(1)).plusSeconds(60));
        Decision early = attempt(timedFromTheFirst);

        assertThat(s3.version("b", "k", first)).as("12 hours before it is due: kept").isPresent();
        assertThat(early.outcome()).isEqualTo(OutcomePolicy.NOOP_VERSION_CHANGED);
        assertThat(early.reason()).contains("demoted again at " + secondDemotion);
    }

    /**
     * Found in review: a stamped version is timed from its stamp, as the walker times it — not from the next newer
     * version, which may be a later write that demoted nothing (the null version overwritten in a Suspended bucket).
     * Timed from that write, the task was put off, the walk of the key the processor asked for sent it again, and
     * that task (from the walk) was finished without a walk: the version never expired.
     */
    @Test
    void shouldTimeAStampedVersionFromItsStampNotFromALaterOverwriteAboveIt() throws Exception {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        s3.putLifecycle("b", ONE_DAY);
        String first = s3.putObject("b", "k", 10, Map.of(), Map.of());
        s3.setVersioning("b", BucketVersioning.SUSPENDED);
        Instant demoted = advanceTo(T0.plus(Duration.ofHours(1)));
        s3.putObject("b", "k", 11, Map.of(), Map.of());   // the null version: the first is demoted, and stamped
        advanceTo(demoted.plus(Duration.ofHours(6)));
        s3.putObject("b", "k", 12, Map.of(), Map.of());   // the null version overwritten: demotes nothing
        ObjectTask task = task(first, ONE_DAY, NONCURRENT_ID, demoted);

        advanceTo(demoted.plus(Duration.ofDays(1)).plusSeconds(1));
        Decision decision = attempt(task);

        assertThat(decision.outcome()).as(decision.reason()).isEqualTo("DONE");
        assertThat(s3.version("b", "k", first)).isEmpty();
    }

    /** A version demoted again moments before its first day ends falls due within a minute: it waits in place. */
    @Test
    void shouldHoldATaskWhoseVersionFallsDueFromItsLastDemotionWithinAMinute() throws Exception {
        s3.createBucket("b", false);
        s3.putLifecycle("b", ONE_DAY);
        s3.putObject("b", "k", 10, Map.of(), Map.of());
        s3.setVersioning("b", BucketVersioning.ENABLED);
        Instant firstDemotion = advanceTo(T0.plus(Duration.ofHours(1)));
        String second = s3.putObject("b", "k", 11, Map.of(), Map.of());
        ObjectTask timedFromTheFirst = task("null", ONE_DAY, NONCURRENT_ID, firstDemotion);
        advanceTo(firstDemotion.plusSeconds(10));
        s3.deleteVersion("b", "k", second);
        Instant secondDemotion = advanceTo(firstDemotion.plusSeconds(40));
        s3.putObject("b", "k", 12, Map.of(), Map.of());

        advanceTo(firstDemotion.plus(Duration.ofDays(1)));
        Decision held = attempt(timedFromTheFirst);

        assertThat(held.verdict()).isEqualTo(OutcomePolicy.Verdict.RETRY_LATER);
        assertThat(held.outcome()).isEqualTo(OutcomePolicy.NOT_DUE_YET);
        assertThat(held.retryIn()).isBetween(Duration.ofSeconds(40), Duration.ofSeconds(41));
        assertThat(held.reason()).contains("demoted again at " + secondDemotion);
        assertThat(s3.version("b", "k", "null")).isPresent();
    }

    /**
     * Issue 43, item 2, where a rule was looked up by its ID a second time: the keep count of a rule re-PUT under a new
     * ID still protects the newest noncurrent versions.
     */
    @Test
    void shouldKeepTheNewestNoncurrentVersionsUnderAKeepCountRuleRenamedSinceTheDecision() throws Exception {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        s3.putLifecycle("b", KEEP_ONE);
        String[] versions = new String[4];
        for (int i = 0; i < versions.length; i++) {
            advanceTo(T0.plusSeconds(i));
            versions[i] = s3.putObject("b", "k", 10 + i, Map.of(), Map.of());
        }
        // versions[1] ranks 1 among the noncurrent versions when decided; then versions[2] goes and it ranks 0.
        ObjectTask rankOne = task(versions[1], KEEP_ONE, "keep-one", T0.plusSeconds(2));
        s3.deleteVersion("b", "k", versions[2]);
        s3.putLifecycle("b", KEEP_ONE.replace("keep-one", "keep-one-regenerated"));

        advanceTo(T0.plus(Duration.ofDays(2)));
        Decision decision = attempt(rankOne);

        assertThat(decision.outcome()).isEqualTo(OutcomePolicy.NOOP_VERSION_CHANGED);
        assertThat(decision.reason()).contains("ranks 0").contains("keeps the newest 1");
        assertThat(s3.version("b", "k", versions[1])).isPresent();
    }

    private Instant advanceTo(Instant instant) {
        clock.set(instant);
        return instant;
    }

    /** A NoncurrentDays task for version {@code versionId} of b/k, decided under the rule on its entry as it is now. */
    private ObjectTask task(String versionId, String xml, String ruleId, Instant noncurrentSince) throws Exception {
        ObjectVersionInfo version = s3.version("b", "k", versionId).orElseThrow();
        String hash = config.ruleReader().read(xml).rule(ruleId).orElseThrow().hash().toHex();
        return ProcessorFixture.task("b", "k", versionId, "NONCURRENT_DAYS", "delete-version",
                LifecycleDeleteHandler.identity(version.entry()), ruleId, hash, S3Entries.modTime(version.entry()),
                noncurrentSince);
    }

    private Decision attempt(ObjectTask task) throws Exception {
        TaskDecoder.Valid valid = (TaskDecoder.Valid) TaskDecoder.validate(task);
        PendingTask pending = new PendingTask(new PartitionWork(), new TopicPartition("object-tasks", 0), 0,
                "b/k", valid.task(), valid.kind(), valid.request());
        return runner.run(pending, 1).get(30, TimeUnit.SECONDS);
    }
}
