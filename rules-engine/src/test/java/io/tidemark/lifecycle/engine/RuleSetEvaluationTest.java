package io.tidemark.lifecycle.engine;

import static io.tidemark.lifecycle.engine.Fixtures.abortAfter;
import static io.tidemark.lifecycle.engine.Fixtures.current;
import static io.tidemark.lifecycle.engine.Fixtures.disabled;
import static io.tidemark.lifecycle.engine.Fixtures.expireDate;
import static io.tidemark.lifecycle.engine.Fixtures.expireDays;
import static io.tidemark.lifecycle.engine.Fixtures.expiredMarker;
import static io.tidemark.lifecycle.engine.Fixtures.marker;
import static io.tidemark.lifecycle.engine.Fixtures.noncurrent;
import static io.tidemark.lifecycle.engine.Fixtures.noncurrentVersion;
import static io.tidemark.lifecycle.engine.Fixtures.rule;
import static io.tidemark.lifecycle.engine.Fixtures.rules;
import static io.tidemark.lifecycle.engine.Fixtures.t;
import static io.tidemark.lifecycle.engine.Fixtures.tag;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class RuleSetEvaluationTest {

    private static final BucketVersioning OFF = BucketVersioning.OFF;
    private static final BucketVersioning ENABLED = BucketVersioning.ENABLED;
    private static final BucketVersioning SUSPENDED = BucketVersioning.SUSPENDED;

    @Nested
    class Filters {

        @Test
        void shouldMatchPrefixesLiterallyAndCaseSensitively() {
            RuleSet rs = rules(rule("r", "<Prefix>logs/</Prefix>", expireDays(1)));
            String now = "2024-02-01T00:00:00Z";
            assertThat(rs.evaluate(current("logs/a", "2024-01-01T00:00:00Z"), OFF, t(now)).action())
                    .isEqualTo(LifecycleAction.DELETE);
            assertThat(rs.evaluate(current("Logs/a", "2024-01-01T00:00:00Z"), OFF, t(now)).action())
                    .isEqualTo(LifecycleAction.NONE);
            assertThat(rs.evaluate(current("logs", "2024-01-01T00:00:00Z"), OFF, t(now)).action())
                    .isEqualTo(LifecycleAction.NONE);
            RuleSet wildcard = rules(rule("r", "<Prefix>a*</Prefix>", expireDays(1)));
            assertThat(wildcard.evaluate(current("ab", "2024-01-01T00:00:00Z"), OFF, t(now)).action())
                    .isEqualTo(LifecycleAction.NONE);
            assertThat(wildcard.evaluate(current("a*b", "2024-01-01T00:00:00Z"), OFF, t(now)).action())
                    .isEqualTo(LifecycleAction.DELETE);
        }

        @Test
        void shouldRequireEveryFilterTagWithAnIdenticalValue() {
            RuleSet rs = rules(rule("r", "<And>" + tag("env", "prod") + tag("tier", "cold") + "</And>", expireDays(1)));
            String mod = "2024-01-01T00:00:00Z";
            var now = t("2024-02-01T00:00:00Z");
            assertThat(rs.evaluate(current("a", 1, Map.of("env", "prod", "tier", "cold", "x", "y"), mod), OFF, now)
                    .action()).isEqualTo(LifecycleAction.DELETE);
            assertThat(rs.evaluate(current("a", 1, Map.of("env", "prod"), mod), OFF, now).action())
                    .isEqualTo(LifecycleAction.NONE);
            assertThat(rs.evaluate(current("a", 1, Map.of("env", "Prod", "tier", "cold"), mod), OFF, now).action())
                    .isEqualTo(LifecycleAction.NONE);
        }

        @Test
        void shouldMatchAKeyOnlyTagOnlyToAnEmptyValue() {
            RuleSet rs = rules(rule("r", "<Tag><Key>archive</Key></Tag>", expireDays(1)));
            var now = t("2024-02-01T00:00:00Z");
            assertThat(rs.evaluate(current("a", 1, Map.of("archive", ""), "2024-01-01T00:00:00Z"), OFF, now).action())
                    .isEqualTo(LifecycleAction.DELETE);
            assertThat(rs.evaluate(current("a", 1, Map.of("archive", "yes"), "2024-01-01T00:00:00Z"), OFF, now)
                    .action()).isEqualTo(LifecycleAction.NONE);
        }

        @Test
        void shouldTreatBothSizeBoundsAsStrict() {
            RuleSet rs = rules(rule("r", "<And><ObjectSizeGreaterThan>100</ObjectSizeGreaterThan>"
                    + "<ObjectSizeLessThan>1000</ObjectSizeLessThan></And>", expireDays(1)));
            var now = t("2024-02-01T00:00:00Z");
            for (long size : new long[] {50, 100, 1000, 2000}) {
                assertThat(rs.evaluate(current("a", size, Map.of(), "2024-01-01T00:00:00Z"), OFF, now).action())
                        .as("size %d", size).isEqualTo(LifecycleAction.NONE);
            }
            assertThat(rs.evaluate(current("a", 500, Map.of(), "2024-01-01T00:00:00Z"), OFF, now).action())
                    .isEqualTo(LifecycleAction.DELETE);
        }

        @Test
        void shouldNeverApplyTagOrLowerSizeBoundFiltersToDeleteMarkers() {
            var now = t("2024-02-01T00:00:00Z");
            RuleSet tagged = rules(rule("r", tag("env", "prod"), expireDays(1)));
            assertThat(tagged.evaluate(marker("a", "2024-01-01T00:00:00Z", 1), ENABLED, now).action())
                    .isEqualTo(LifecycleAction.NONE);
            RuleSet bigOnly = rules(rule("r", "<ObjectSizeGreaterThan>0</ObjectSizeGreaterThan>", expireDays(1)));
            assertThat(bigOnly.evaluate(marker("a", "2024-01-01T00:00:00Z", 1), ENABLED, now).action())
                    .isEqualTo(LifecycleAction.NONE);
            RuleSet smallOnly = rules(rule("r", "<ObjectSizeLessThan>10</ObjectSizeLessThan>", expireDays(1)));
            assertThat(smallOnly.evaluate(marker("a", "2024-01-01T00:00:00Z", 1), ENABLED, now).action())
                    .isEqualTo(LifecycleAction.DELETE_MARKER_CLEANUP);
        }

        @Test
        void shouldIgnoreDisabledRules() {
            RuleSet rs = rules(disabled("off", "", expireDays(1)), rule("on", "<Prefix>x/</Prefix>", expireDays(1)));
            assertThat(rs.evaluate(current("a", "2024-01-01T00:00:00Z"), OFF, t("2025-01-01T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
            assertThat(rs.rules()).hasSize(2);
        }
    }

    @Nested
    class CurrentVersions {

        @Test
        void shouldDeleteInAnUnversionedBucketAndAddAMarkerInAVersionedOne() {
            RuleSet rs = rules(rule("r", "", expireDays(1)));
            var v = current("a", "2024-01-01T08:00:00Z");
            var now = t("2024-01-10T00:00:00Z");
            assertThat(rs.evaluate(v, OFF, now).action()).isEqualTo(LifecycleAction.DELETE);
            assertThat(rs.evaluate(v, ENABLED, now).action()).isEqualTo(LifecycleAction.CREATE_DELETE_MARKER);
            assertThat(rs.evaluate(v, SUSPENDED, now).action()).isEqualTo(LifecycleAction.CREATE_DELETE_MARKER);
            assertThat(rs.evaluate(v, OFF, now).due().orElseThrow().kind()).isEqualTo(ActionKind.EXPIRATION_DAYS);
        }

        @Test
        void shouldReportTheDueInstantOfAMatchNotDueYet() {
            RuleSet rs = rules(rule("r", "", expireDays(3)));
            Evaluation e = rs.evaluate(current("a", "2014-01-15T10:30:00Z"), OFF, t("2014-01-18T23:59:59Z"));
            assertThat(e.action()).isEqualTo(LifecycleAction.NONE);
            assertThat(e.upcoming().orElseThrow().dueAt()).isEqualTo(t("2014-01-19T00:00:00Z"));
            assertThat(e.upcoming().orElseThrow().ruleId()).isEqualTo("r");
        }

        @Test
        void shouldActExactlyAtTheDueInstant() {
            RuleSet rs = rules(rule("r", "", expireDays(3)));
            assertThat(rs.evaluate(current("a", "2014-01-15T10:30:00Z"), OFF, t("2014-01-19T00:00:00Z")).action())
                    .isEqualTo(LifecycleAction.DELETE);
        }

        @Test
        void shouldKeepExpiringObjectsCreatedAfterAPastDate() {
            RuleSet rs = rules(rule("r", "", expireDate("2024-01-01T00:00:00Z")));
            Evaluation e = rs.evaluate(current("new", "2024-06-01T10:00:00Z"), OFF, t("2024-06-01T10:05:00Z"));
            assertThat(e.action()).isEqualTo(LifecycleAction.DELETE);
            assertThat(e.due().orElseThrow().kind()).isEqualTo(ActionKind.EXPIRATION_DATE);
            assertThat(rs.evaluate(current("a", "2023-06-01T10:00:00Z"), OFF, t("2023-12-31T23:59:59Z")).action())
                    .isEqualTo(LifecycleAction.NONE);
        }

        @Test
        void shouldNeverExpireAnObjectThroughAMarkerOnlyRule() {
            RuleSet rs = rules(rule("r", "", expiredMarker()));
            assertThat(rs.evaluate(current("a", "2020-01-01T00:00:00Z"), ENABLED, t("2025-01-01T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
        }

        @Test
        void shouldNotLetADueTransitionHoldBackADueExpiration() {
            RuleSet rs = rules(rule("r", "", "<Transition><Days>0</Days><StorageClass>GLACIER</StorageClass>"
                    + "</Transition>" + expireDays(1)));
            assertThat(rs.evaluate(current("a", "2024-01-01T00:00:00Z"), ENABLED, t("2024-01-05T00:00:00Z")).action())
                    .isEqualTo(LifecycleAction.CREATE_DELETE_MARKER);
            RuleSet transitionOnly = rules(rule("r", "", "<Transition><Days>0</Days><StorageClass>GLACIER"
                    + "</StorageClass></Transition>"));
            assertThat(transitionOnly.evaluate(current("a", "2024-01-01T00:00:00Z"), OFF, t("2024-01-05T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
        }
    }

    @Nested
    class DeleteMarkers {

        @Test
        void shouldRemoveASoleMarkerAtOnceWithExpiredObjectDeleteMarker() {
            RuleSet rs = rules(rule("r", "", expiredMarker()));
            Evaluation e = rs.evaluate(marker("k", "2024-03-20T11:00:00Z", 1), ENABLED, t("2024-03-20T12:00:00Z"));
            assertThat(e.action()).isEqualTo(LifecycleAction.DELETE_MARKER_CLEANUP);
            assertThat(e.due().orElseThrow().kind()).isEqualTo(ActionKind.EXPIRED_DELETE_MARKER);
        }

        @Test
        void shouldLeaveAMarkerWithVersionsBeneathIt() {
            RuleSet rs = rules(rule("r", "", expiredMarker()), rule("d", "<Prefix>k</Prefix>", expireDays(1)));
            assertThat(rs.evaluate(marker("k", "2024-01-01T00:00:00Z", 2), ENABLED, t("2025-01-01T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
        }

        @Test
        void shouldWaitForAMarkerToBeDaysOldUnderExpirationDays() {
            RuleSet rs = rules(rule("r", "", expireDays(5)));
            var young = rs.evaluate(marker("k", "2024-06-01T10:00:03Z", 1), ENABLED, t("2024-06-03T00:00:00Z"));
            assertThat(young.action()).isEqualTo(LifecycleAction.NONE);
            assertThat(young.upcoming().orElseThrow().dueAt()).isEqualTo(t("2024-06-07T00:00:00Z"));
            var old = rs.evaluate(marker("k", "2024-06-01T10:00:03Z", 1), ENABLED, t("2024-06-07T00:30:00Z"));
            assertThat(old.action()).isEqualTo(LifecycleAction.DELETE_MARKER_CLEANUP);
        }

        @Test
        void shouldCleanUpSoleMarkersFromAnExpirationDate() {
            RuleSet rs = rules(rule("r", "", expireDate("2024-01-01T00:00:00Z")));
            assertThat(rs.evaluate(marker("k", "2024-02-01T00:00:00Z", 1), ENABLED, t("2024-02-02T00:00:00Z")).action())
                    .isEqualTo(LifecycleAction.DELETE_MARKER_CLEANUP);
        }

        @Test
        void shouldTakeNoExpirationActionOnASuspendedNullMarkerWithVersions() {
            RuleSet rs = rules(rule("r", "", expireDays(1)));
            var nullMarker = new ObjectVersion("k", 0, Map.of(), t("2024-01-05T08:00:00Z"), true, true, "null", null, 2,
                    null);
            assertThat(rs.evaluate(nullMarker, SUSPENDED, t("2024-03-10T00:00:00Z"))).isEqualTo(Evaluation.NOTHING);
        }
    }

    @Nested
    class NoncurrentVersions {

        @Test
        void shouldCountFromTheSuccessorsCreationNotTheVersionsOwn() {
            RuleSet rs = rules(rule("r", "", noncurrent(3)));
            var v = noncurrentVersion("photo.gif", "2014-01-01T10:30:00Z", "2014-01-15T10:30:00Z", 0);
            assertThat(rs.evaluate(v, ENABLED, t("2014-01-18T12:00:00Z")).action()).isEqualTo(LifecycleAction.NONE);
            Evaluation after = rs.evaluate(v, ENABLED, t("2014-01-19T00:00:01Z"));
            assertThat(after.action()).isEqualTo(LifecycleAction.DELETE_VERSION);
            assertThat(after.due().orElseThrow().dueAt()).isEqualTo(t("2014-01-19T00:00:00Z"));
            assertThat(after.due().orElseThrow().kind()).isEqualTo(ActionKind.NONCURRENT_DAYS);
        }

        /**
         * NoncurrentDays count from when the version became noncurrent. A long-lived version demoted a moment ago
         * must not be due at once because its own mtime is old: with no demotion time known, it is not due.
         */
        @Test
        void shouldNotExpireANoncurrentVersionWhoseDemotionTimeIsUnknown() {
            RuleSet rs = rules(rule("r", "", noncurrent(30)));
            var v = new ObjectVersion("a", 1, Map.of(), t("2024-01-01T00:00:00Z"), false, false, "v1", null, 2, 0);
            Evaluation evaluation = rs.evaluate(v, ENABLED, t("2025-01-31T00:00:00Z"));
            assertThat(evaluation.action()).isEqualTo(LifecycleAction.NONE);
            assertThat(evaluation.upcoming()).isEmpty();
            assertThat(v.noncurrentSince()).isEmpty();
        }

        @Test
        void shouldKeepTheNewestNoncurrentVersionsWhateverTheirAge() {
            RuleSet rs = rules(rule("r", "", noncurrent(1, 5)));
            var now = t("2024-06-05T00:00:00Z");
            for (int rank = 0; rank < 5; rank++) {
                var kept = noncurrentVersion("o", "2024-06-01T10:00:00Z", "2024-06-01T10:00:01Z", rank);
                assertThat(rs.evaluate(kept, ENABLED, now).action()).as("rank %d", rank).isEqualTo(LifecycleAction.NONE);
            }
            var fifth = noncurrentVersion("o", "2024-06-01T10:00:00Z", "2024-06-01T10:00:01Z", 5);
            assertThat(rs.evaluate(fifth, ENABLED, now).action()).isEqualTo(LifecycleAction.DELETE_VERSION);
            var unknownRank = new ObjectVersion("o", 1, Map.of(), t("2024-06-01T10:00:00Z"), false, false, "v", t(
                    "2024-06-01T10:00:01Z"), 10, null);
            assertThat(rs.evaluate(unknownRank, ENABLED, now).action()).isEqualTo(LifecycleAction.NONE);
        }

        @Test
        void shouldStillRequireTheAgeWhenTheRankIsReached() {
            RuleSet rs = rules(rule("r", "", noncurrent(30, 2)));
            var recent = noncurrentVersion("o", "2024-06-01T00:00:00Z", "2024-06-02T00:00:00Z", 4);
            assertThat(rs.evaluate(recent, ENABLED, t("2024-06-10T00:00:00Z")).action()).isEqualTo(LifecycleAction.NONE);
        }

        @Test
        void shouldExpireNoncurrentDeleteMarkersToo() {
            RuleSet rs = rules(rule("r", "", noncurrent(1)));
            var oldMarker = new ObjectVersion("k", 0, Map.of(), t("2024-01-01T00:00:00Z"), false, true, "dm", t(
                    "2024-01-02T00:00:00Z"), 3, 0);
            assertThat(rs.evaluate(oldMarker, ENABLED, t("2024-01-04T00:00:00Z")).action())
                    .isEqualTo(LifecycleAction.DELETE_VERSION);
        }

        @Test
        void shouldNeverTouchTheCurrentVersionWithANoncurrentRule() {
            RuleSet rs = rules(rule("r", "", noncurrent(1)));
            assertThat(rs.evaluate(current("a", "2020-01-01T00:00:00Z"), ENABLED, t("2025-01-01T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
        }
    }

    @Nested
    class MultipartUploads {

        @Test
        void shouldAbortByDestinationPrefixAfterRoundedDays() {
            RuleSet rs = rules(rule("r", "<Prefix>test1/</Prefix>", abortAfter(2)));
            var upload = new MultipartUpload("test1/a", t("2024-05-01T08:00:00Z"));
            assertThat(rs.evaluate(upload, t("2024-05-03T12:00:00Z")).action()).isEqualTo(LifecycleAction.NONE);
            Evaluation later = rs.evaluate(upload, t("2024-05-04T00:00:00Z"));
            assertThat(later.action()).isEqualTo(LifecycleAction.ABORT_MPU);
            assertThat(later.due().orElseThrow().kind()).isEqualTo(ActionKind.ABORT_MPU);
            assertThat(rs.evaluate(new MultipartUpload("other/a", t("2024-01-01T00:00:00Z")), t("2025-01-01T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
        }

        @Test
        void shouldNeverAbortUploadsThroughExpirationRulesNorExpireObjectsThroughAbortRules() {
            RuleSet expireOnly = rules(rule("r", "", expireDays(1)));
            assertThat(expireOnly.evaluate(new MultipartUpload("a", t("2024-01-01T00:00:00Z")), t("2024-03-01T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
            RuleSet abortOnly = rules(rule("r", "", abortAfter(1)));
            assertThat(abortOnly.evaluate(current("a", "2024-01-01T00:00:00Z"), OFF, t("2024-03-01T00:00:00Z")))
                    .isEqualTo(Evaluation.NOTHING);
        }
    }

    @Nested
    class Precedence {

        @Test
        void shouldHonourTheShorterOfTwoOverlappingExpirations() {
            RuleSet rs = rules(rule("all", "<Prefix></Prefix>", expireDays(10)), rule("a", "<Prefix>a</Prefix>",
                    expireDays(5)));
            Evaluation e = rs.evaluate(current("abc", "2024-01-01T12:00:00Z"), OFF, t("2024-02-01T00:00:00Z"));
            assertThat(e.ruleId()).contains("a");
        }

        @Test
        void shouldNameTheFirstListedRuleWhenSeveralFallDueTogether() {
            RuleSet rs = rules(rule("rule_one", "<Prefix>testobject</Prefix>", expireDays(7)),
                    rule("rule_two", "<Prefix>test</Prefix>", expireDays(7)),
                    rule("rule_three", "<Prefix>t</Prefix>", expireDays(7)));
            Evaluation e = rs.evaluate(current("testobject-expiry", "2024-07-01T09:15:00Z"), OFF,
                    t("2024-07-09T09:00:00Z"));
            assertThat(e.ruleId()).contains("rule_one");
        }

        @Test
        void shouldReportTheEarliestUpcomingMatch() {
            RuleSet rs = rules(rule("long", "", expireDays(30)), rule("short", "<Prefix>a</Prefix>", expireDays(3)));
            Evaluation e = rs.evaluate(current("abc", "2024-01-01T12:00:00Z"), OFF, t("2024-01-02T00:00:00Z"));
            assertThat(e.due()).isEmpty();
            assertThat(e.upcoming().orElseThrow().ruleId()).isEqualTo("short");
            assertThat(e.upcoming().orElseThrow().dueAt()).isEqualTo(t("2024-01-05T00:00:00Z"));
        }

        @Test
        void shouldCarryTheRuleHashOfTheDecidingRule() {
            RuleSet rs = rules(rule("r", "<Prefix>logs/</Prefix>", expireDays(30)));
            Evaluation e = rs.evaluate(current("logs/x", "2024-01-01T00:00:00Z"), OFF, t("2024-03-01T00:00:00Z"));
            assertThat(e.due().orElseThrow().ruleHash().toHex()).isEqualTo("0c8cc7219c442e3e");
        }
    }

    @Test
    void shouldFollowAShortLifecycleDayForTests() {
        RuleSet rs = rules(LifecycleCalendar.of(DuePolicy.EXACT, Duration.ofSeconds(1)), rule("r", "", expireDays(5)));
        var v = current("a", "2024-01-01T00:00:00Z");
        assertThat(rs.evaluate(v, OFF, t("2024-01-01T00:00:04Z")).action()).isEqualTo(LifecycleAction.NONE);
        assertThat(rs.evaluate(v, OFF, t("2024-01-01T00:00:05Z")).action()).isEqualTo(LifecycleAction.DELETE);
    }
}
