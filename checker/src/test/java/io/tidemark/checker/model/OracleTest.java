package io.tidemark.checker.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.checker.model.TraceEvent.VersionView;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The oracle on hand-made traces, with a day of one second, a grace of four days and a race window of 0.5 s. */
class OracleTest {

    private static final Instant T0 = Instant.parse("2026-11-26T10:00:00Z");
    private static final String EXPIRE_A_AFTER_2_DAYS = "<LifecycleConfiguration>"
            + RuleCatalog.rule(RuleCatalog.RuleKind.EXPIRE_PREFIX, 0, 2) + "</LifecycleConfiguration>";
    private static final String NONCURRENT_AFTER_1_DAY = "<LifecycleConfiguration>"
            + RuleCatalog.rule(RuleCatalog.RuleKind.NONCURRENT, 0, 1) + "</LifecycleConfiguration>";

    private final Oracle oracle = new Oracle(new RuleReader(ValidationMode.AWS, LifecycleCalendar.of(DuePolicy.EXACT,
            Duration.ofSeconds(1))), Duration.ofSeconds(4), Duration.ofMillis(500));
    private final List<TraceEvent> trace = new ArrayList<>();

    private static Instant at(double seconds) {
        return T0.plusNanos((long) (seconds * 1e9));
    }

    private static VersionView plain(Instant mtime, Map<String, String> tags) {
        return new VersionView("null", true, false, mtime, 10, tags);
    }

    private void bucket(double t, BucketVersioning versioning, String rules) {
        trace.add(new TraceEvent.BucketChanged(at(t), "b", versioning, rules, "test"));
    }

    private void key(double t, String key, VersionView... versions) {
        trace.add(new TraceEvent.KeyChanged(at(t), "b", key, "test", List.of(versions)));
    }

    private void acted(double t, String key, String versionId, VersionView... after) {
        trace.add(new TraceEvent.LifecycleActed(at(t), "b", key, versionId, "EXPIRATION_DAYS", List.of(after)));
    }

    @Test
    void shouldAcceptADeleteOfAnObjectOnceItsDaysHavePassed() {
        bucket(0, BucketVersioning.OFF, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", plain(at(0), Map.of()));
        acted(2.3, "a/1", "");

        Oracle.Verdict verdict = oracle.judge(trace, at(10));

        assertThat(verdict.findings()).isEmpty();
        assertThat(verdict.actions()).isEqualTo(1);
        assertThat(verdict.latestAction()).isEqualTo(Duration.ofMillis(300));
    }

    @Test
    void shouldFindAWrongfulDeleteOfAnObjectBeforeItsDaysHavePassed() {
        bucket(0, BucketVersioning.OFF, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", plain(at(0), Map.of()));
        acted(1.5, "a/1", "");

        assertThat(oracle.judge(trace, at(10)).findings()).singleElement()
                .returns(Finding.Kind.WRONGFUL_DELETE, Finding::kind).returns("a/1", Finding::key);
    }

    @Test
    void shouldFindAWrongfulDeleteUnderARuleRemovedLongerAgoThanTheRaceWindow() {
        bucket(0, BucketVersioning.OFF, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", plain(at(0), Map.of()));
        bucket(2.5, BucketVersioning.OFF, null);
        acted(3.2, "a/1", "");

        assertThat(oracle.judge(trace, at(10)).findings()).singleElement()
                .returns(Finding.Kind.WRONGFUL_DELETE, Finding::kind);
    }

    @Test
    void shouldAcceptADeleteThatRacedARuleRemovalWithinTheRaceWindow() {
        bucket(0, BucketVersioning.OFF, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", plain(at(0), Map.of()));
        bucket(2.5, BucketVersioning.OFF, null);
        acted(2.8, "a/1", "");

        assertThat(oracle.judge(trace, at(10)).findings()).isEmpty();
    }

    @Test
    void shouldFindALostExpirationOfAnObjectDueLongerThanTheGrace() {
        bucket(0, BucketVersioning.OFF, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", plain(at(0), Map.of()));
        key(0, "b/1", plain(at(0), Map.of()));

        assertThat(oracle.judge(trace, at(6.5)).findings()).singleElement()
                .returns(Finding.Kind.LOST_EXPIRATION, Finding::kind).returns("a/1", Finding::key)
                .returns(at(6), Finding::at);
    }

    @Test
    void shouldStartTheGraceAgainWhenAnOverwriteMakesTheObjectYoung() {
        bucket(0, BucketVersioning.OFF, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", plain(at(0), Map.of()));
        key(1.5, "a/1", plain(at(1.5), Map.of()));

        assertThat(oracle.judge(trace, at(7)).findings()).isEmpty();
    }

    @Test
    void shouldNotCountANoncurrentVersionUnderLegalHoldAsLostAndCountItFromTheRelease() {
        bucket(0, BucketVersioning.ENABLED, NONCURRENT_AFTER_1_DAY);
        VersionView old = new VersionView("v1", false, false, at(0), 10, Map.of());
        VersionView current = new VersionView("v2", true, false, at(1), 10, Map.of());
        key(0, "k", new VersionView("v1", true, false, at(0), 10, Map.of()));
        trace.add(new TraceEvent.LockChanged(at(0.5), "b", "k", "v1", true, null, "hold"));
        key(1, "k", current, old);
        trace.add(new TraceEvent.LockChanged(at(8), "b", "k", "v1", false, null, "release"));

        assertThat(oracle.judge(trace, at(11)).findings()).isEmpty();
        assertThat(new Oracle(new RuleReader(ValidationMode.AWS, LifecycleCalendar.of(DuePolicy.EXACT,
                Duration.ofSeconds(1))), Duration.ofSeconds(4), Duration.ofMillis(500)).judge(trace, at(12.5))
                .findings()).singleElement().returns(Finding.Kind.LOST_EXPIRATION, Finding::kind)
                .returns("v1", Finding::versionId).returns(at(12), Finding::at);
    }

    /**
     * Found by {@code check --filers 2 --seed 4714}: the current version of a versioned object-lock bucket under a
     * legal hold that is never lifted. AWS would put a delete marker over it; SeaweedFS's LifecycleDelete checks the
     * lock of the latest version before it creates the marker and answers SKIPPED_OBJECT_LOCK, so no engine using it
     * can expire that object, and the oracle called it lost.
     */
    @Test
    void shouldNotExpectADeleteMarkerOverACurrentVersionUnderLegalHold() {
        bucket(0, BucketVersioning.ENABLED, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", new VersionView("v1", true, false, at(0), 10, Map.of()));
        trace.add(new TraceEvent.LockChanged(at(0.5), "b", "a/1", "v1", true, null, "hold"));

        assertThat(oracle.judge(trace, at(10)).findings()).isEmpty();
    }

    /**
     * Found by {@code check --filers 2 --seed 4724}: versions written while the bucket was Enabled, then versioning
     * Suspended. Without a version ID, SeaweedFS's LifecycleDelete fetches the bare object (the null version) of a
     * bucket that is not Enabled; the current version lives in {@code .versions}, so every expiration of it answers
     * NOT_FOUND, and naming it would delete whatever is latest when the gateway acts. No engine using the gateway can
     * expire it until versioning is Enabled again or a null version is put on top.
     */
    @Test
    void shouldNotExpectTheExpirationOfAVersionedCurrentVersionWhileVersioningIsSuspended() {
        bucket(0, BucketVersioning.ENABLED, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", new VersionView("v1", true, false, at(0), 10, Map.of()));
        bucket(0.5, BucketVersioning.SUSPENDED, EXPIRE_A_AFTER_2_DAYS);

        assertThat(oracle.judge(trace, at(10)).findings()).isEmpty();
        assertThat(new Oracle(new RuleReader(ValidationMode.AWS, LifecycleCalendar.of(DuePolicy.EXACT,
                Duration.ofSeconds(1))), Duration.ofSeconds(4), Duration.ofMillis(500)).judge(withEnabledAgainAt(6),
                at(12.5)).findings()).as("from versioning Enabled again on").singleElement()
                .returns(Finding.Kind.LOST_EXPIRATION, Finding::kind).returns(at(10), Finding::at);
    }

    private List<TraceEvent> withEnabledAgainAt(double t) {
        List<TraceEvent> again = new ArrayList<>(trace);
        again.add(new TraceEvent.BucketChanged(at(t), "b", BucketVersioning.ENABLED, EXPIRE_A_AFTER_2_DAYS, "test"));
        return again;
    }

    @Test
    void shouldTimeADeleteMarkerOverACurrentVersionFromTheEndOfItsRetention() {
        bucket(0, BucketVersioning.ENABLED, EXPIRE_A_AFTER_2_DAYS);
        key(0, "a/1", new VersionView("v1", true, false, at(0), 10, Map.of()));
        trace.add(new TraceEvent.LockChanged(at(0.5), "b", "a/1", "v1", false, at(3), "retain"));

        assertThat(oracle.judge(trace, at(7.5)).findings()).singleElement()
                .returns(Finding.Kind.LOST_EXPIRATION, Finding::kind).returns(at(7), Finding::at);
    }

    @Test
    void shouldFindAWrongfulDeleteOfAVersionUnderLegalHold() {
        bucket(0, BucketVersioning.ENABLED, NONCURRENT_AFTER_1_DAY);
        key(0, "k", new VersionView("v1", true, false, at(0), 10, Map.of()));
        trace.add(new TraceEvent.LockChanged(at(0.5), "b", "k", "v1", true, null, "hold"));
        VersionView current = new VersionView("v2", true, false, at(1), 10, Map.of());
        key(1, "k", current, new VersionView("v1", false, false, at(0), 10, Map.of()));
        acted(3, "k", "v1", current);

        assertThat(oracle.judge(trace, at(5)).findings()).singleElement()
                .returns(Finding.Kind.WRONGFUL_DELETE, Finding::kind).returns("v1", Finding::versionId);
    }

    /**
     * Found by the checker's first process run (seed 911): in a Suspended bucket a put replaces the null version that
     * made an older version noncurrent. The older version became noncurrent when the first null version was written,
     * and stays so (S3: "days since the object became noncurrent"; SeaweedFS stamps that instant on the version); the
     * oracle timed it from the replacing null version instead and called a delete on time wrongful.
     */
    @Test
    void shouldTimeANoncurrentVersionFromWhenItBecameNoncurrentThoughItsNullSuccessorIsReplaced() {
        bucket(0, BucketVersioning.SUSPENDED, NONCURRENT_AFTER_1_DAY);
        VersionView v1 = new VersionView("v1", false, false, at(0), 10, Map.of());
        key(2, "k", new VersionView("null", true, false, at(2), 10, Map.of()), v1);
        VersionView replaced = new VersionView("null", true, false, at(2.8), 10, Map.of());
        key(2.8, "k", replaced, v1);
        // Noncurrent since 2 s, so due at 3 s — not at 3.8 s, a day after the null version that replaced the first.
        acted(3.2, "k", "v1", replaced);

        assertThat(oracle.judge(trace, at(12)).findings()).isEmpty();
    }

    /**
     * Seed 1006: the gateway listed a versioned delete marker before the null delete marker that was latest; the
     * oracle took the first listed for the newest, found the marker no successor, and called its removal on time
     * wrongful. What makes a version noncurrent is the latest one written after it.
     */
    @Test
    void shouldTimeANoncurrentVersionFromTheLatestThatDemotedItWhereverTheListPutsTheNullVersion() {
        bucket(0, BucketVersioning.SUSPENDED, NONCURRENT_AFTER_1_DAY);
        VersionView marker = new VersionView("m1", true, true, at(0), 0, Map.of());
        key(0, "k", marker);
        VersionView nullMarker = new VersionView("null", true, true, at(1), 0, Map.of());
        VersionView demoted = new VersionView("m1", false, true, at(0), 0, Map.of());
        key(1, "k", demoted, nullMarker);
        acted(2.2, "k", "m1", nullMarker);

        assertThat(oracle.judge(trace, at(12)).findings()).isEmpty();
    }

    @Test
    void shouldTimeANoncurrentVersionFromItsSuccessorAndRankItAmongTheNoncurrentOnes() {
        bucket(0, BucketVersioning.ENABLED, NONCURRENT_AFTER_1_DAY);
        VersionView v3 = new VersionView("v3", true, false, at(4), 10, Map.of());
        VersionView v2 = new VersionView("v2", false, false, at(2), 10, Map.of());
        VersionView v1 = new VersionView("v1", false, false, at(0), 10, Map.of());
        key(4, "k", v3, v2, v1);
        // v1 is noncurrent since v2 was written (2 s), due at 3 s; v2 since v3 (4 s), due at 5 s.
        acted(4.2, "k", "v1", v3, v2);
        acted(4.4, "k", "v2", v3);

        assertThat(oracle.judge(trace, at(6)).findings()).singleElement()
                .returns(Finding.Kind.WRONGFUL_DELETE, Finding::kind).returns("v2", Finding::versionId);
    }

    @Test
    void shouldJudgeAnUploadAgainstTheDaysAfterItsInitiation() {
        String abortAfter2Days = "<LifecycleConfiguration>" + RuleCatalog.rule(RuleCatalog.RuleKind.ABORT_UPLOADS, 0, 2)
                + "</LifecycleConfiguration>";
        bucket(0, BucketVersioning.OFF, abortAfter2Days);
        trace.add(new TraceEvent.UploadChanged(at(0), "b", "early", "a/1", at(0), true, "begun"));
        trace.add(new TraceEvent.UploadChanged(at(0), "b", "forgotten", "a/2", at(0), true, "begun"));
        trace.add(new TraceEvent.UploadChanged(at(0), "b", "on-time", "a/3", at(0), true, "begun"));
        trace.add(new TraceEvent.LifecycleActed(at(1), "b", ".uploads/early", "", "ABORT_MPU", List.of()));
        trace.add(new TraceEvent.UploadChanged(at(1), "b", "early", "a/1", null, false, "aborted by lifecycle"));
        trace.add(new TraceEvent.LifecycleActed(at(2.5), "b", ".uploads/on-time", "", "ABORT_MPU", List.of()));
        trace.add(new TraceEvent.UploadChanged(at(2.5), "b", "on-time", "a/3", null, false, "aborted by lifecycle"));

        assertThat(oracle.judge(trace, at(7)).findings())
                .extracting(Finding::kind, Finding::key)
                .containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(Finding.Kind.WRONGFUL_DELETE, ".uploads/early"),
                        org.assertj.core.groups.Tuple.tuple(Finding.Kind.LOST_EXPIRATION, ".uploads/forgotten"));
    }
}
