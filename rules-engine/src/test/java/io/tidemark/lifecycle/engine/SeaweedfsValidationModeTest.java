package io.tidemark.lifecycle.engine;

import static io.tidemark.lifecycle.engine.Fixtures.noncurrentVersion;
import static io.tidemark.lifecycle.engine.Fixtures.rule;
import static io.tidemark.lifecycle.engine.Fixtures.t;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.S3ErrorCode;
import io.tidemark.lifecycle.config.ValidationMode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** NewerNoncurrentVersions without NoncurrentDays: MalformedXML for S3, a rank-only rule for SeaweedFS. */
class SeaweedfsValidationModeTest {

    private static final String KEEP_TWO = "<NoncurrentVersionExpiration><NewerNoncurrentVersions>2"
            + "</NewerNoncurrentVersions></NoncurrentVersionExpiration>";

    private static byte[] document(String... rules) {
        return ("<LifecycleConfiguration>" + String.join("", rules) + "</LifecycleConfiguration>")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static RuleSet read(ValidationMode mode, String... rules) throws LifecycleConfigException {
        return new RuleReader(mode, LifecycleCalendar.aws()).read(document(rules));
    }

    @Test
    void shouldRejectAKeepCountWithoutDaysAsMalformedXmlInAwsMode() {
        assertThatThrownBy(() -> read(ValidationMode.AWS, rule("r", "", KEEP_TWO)))
                .isInstanceOf(LifecycleConfigException.class)
                .hasMessageContaining("needs <NoncurrentDays>")
                .extracting(e -> ((LifecycleConfigException) e).code()).isEqualTo(S3ErrorCode.MalformedXML);
    }

    @Test
    void shouldStillRejectANoncurrentExpirationWithNeitherElementInSeaweedfsMode() {
        assertThatThrownBy(() -> read(ValidationMode.SEAWEEDFS, rule("r", "",
                "<NoncurrentVersionExpiration></NoncurrentVersionExpiration>")))
                .isInstanceOf(LifecycleConfigException.class)
                .extracting(e -> ((LifecycleConfigException) e).code()).isEqualTo(S3ErrorCode.MalformedXML);
    }

    @Test
    void shouldRunAKeepCountWithoutDaysOnTheWalkerByRankAlone() throws Exception {
        RuleSet rs = read(ValidationMode.SEAWEEDFS, rule("r", "<Prefix>p/</Prefix>", KEEP_TWO));
        CompiledRule r = rs.rules().get(0);
        assertThat(r.kinds()).containsExactly(ActionKind.NEWER_NONCURRENT);
        assertThat(rs.replayActions("b")).as("no timer: nothing counts days").isEmpty();
        assertThat(rs.needsWalks()).isTrue();

        var now = t("2024-06-01T10:00:05Z");
        for (int rank = 0; rank < 2; rank++) {
            var kept = noncurrentVersion("p/o", "2024-06-01T10:00:00Z", "2024-06-01T10:00:01Z", rank);
            assertThat(rs.evaluate(kept, BucketVersioning.ENABLED, now).action()).as("rank %d", rank)
                    .isEqualTo(LifecycleAction.NONE);
        }
        var third = noncurrentVersion("p/o", "2024-06-01T10:00:00Z", "2024-06-01T10:00:01Z", 2);
        Evaluation due = rs.evaluate(third, BucketVersioning.ENABLED, now);
        assertThat(due.action()).isEqualTo(LifecycleAction.DELETE_VERSION);
        assertThat(due.due().orElseThrow().kind()).isEqualTo(ActionKind.NEWER_NONCURRENT);
        var unknownRank = new ObjectVersion("p/o", 1, java.util.Map.of(), t("2024-06-01T10:00:00Z"), false, false,
                "v", t("2024-06-01T10:00:01Z"), 10, null);
        assertThat(rs.evaluate(unknownRank, BucketVersioning.ENABLED, now).action()).isEqualTo(LifecycleAction.NONE);
        assertThat(rs.evaluate(third, BucketVersioning.OFF, now).action()).isEqualTo(LifecycleAction.NONE);
    }

    @Test
    void shouldKeepTheOtherRulesOfABucketThatUsesAKeepCountWithoutDays() throws Exception {
        RuleSet rs = read(ValidationMode.SEAWEEDFS, rule("keep", "", KEEP_TWO),
                rule("logs", "<Prefix>logs/</Prefix>", "<Expiration><Days>3</Days></Expiration>"));
        assertThat(rs.rules()).hasSize(2);
        assertThat(rs.replayActions("b")).extracting(a -> a.kind()).containsExactly(ActionKind.EXPIRATION_DAYS);
    }

    @Test
    void shouldApplyEveryOtherS3CheckInSeaweedfsMode() {
        assertThatThrownBy(() -> read(ValidationMode.SEAWEEDFS, rule("r", "", "<NoncurrentVersionExpiration>"
                + "<NewerNoncurrentVersions>0</NewerNoncurrentVersions></NoncurrentVersionExpiration>")))
                .isInstanceOf(LifecycleConfigException.class);
        assertThatThrownBy(() -> read(ValidationMode.SEAWEEDFS, rule("r", "", "<NoncurrentVersionExpiration>"
                + "<NoncurrentDays>0</NoncurrentDays></NoncurrentVersionExpiration>")))
                .isInstanceOf(LifecycleConfigException.class);
    }

    @Test
    void shouldNameTheModesAsTheSettingSpellsThem() {
        assertThat(ValidationMode.parse("aws")).isEqualTo(ValidationMode.AWS);
        assertThat(ValidationMode.parse("seaweedfs")).isEqualTo(ValidationMode.SEAWEEDFS);
        assertThat(ValidationMode.SEAWEEDFS.label()).isEqualTo("seaweedfs");
        assertThatThrownBy(() -> ValidationMode.parse("minio")).isInstanceOf(IllegalArgumentException.class);
    }
}
