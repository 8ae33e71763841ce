package io.tidemark.lifecycle.config;

import static io.tidemark.lifecycle.config.Docs.config;
import static io.tidemark.lifecycle.config.Docs.days;
import static io.tidemark.lifecycle.config.Docs.legacyRule;
import static io.tidemark.lifecycle.config.Docs.rule;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LifecycleValidatorTest {

    private static void assertRejected(String document, S3ErrorCode code, String messagePart) {
        assertThatThrownBy(() -> LifecycleConfigs.parseAndValidate(document))
                .isInstanceOf(LifecycleConfigException.class)
                .hasMessageContaining(messagePart)
                .extracting(e -> ((LifecycleConfigException) e).code())
                .isEqualTo(code);
    }

    private static void assertAccepted(String document) {
        assertThatCode(() -> LifecycleConfigs.parseAndValidate(document)).doesNotThrowAnyException();
    }

    private static final String TAG = "<Tag><Key>env</Key><Value>prod</Value></Tag>";

    @Test
    void shouldAcceptAnIdOf255CharactersAndRejectOneOf256() {
        assertAccepted(config(rule("a".repeat(255), "", days(1))));
        assertRejected(config(rule("a".repeat(256), "", days(1))), S3ErrorCode.InvalidArgument,
                "256 characters long");
    }

    @Test
    void shouldAcceptRulesWithoutId() {
        assertAccepted(config("<Rule><Filter/><Status>Enabled</Status>" + days(1) + "</Rule>",
                "<Rule><ID></ID><Filter/><Status>Enabled</Status>" + days(2) + "</Rule>"));
    }

    @Test
    void shouldRejectDuplicateIdsNamingBothRules() {
        assertRejected(config(rule("same", "<Prefix>a/</Prefix>", days(1)), rule("same", "<Prefix>b/</Prefix>", days(2))),
                S3ErrorCode.InvalidArgument, "rule 2 (ID \"same\"): rule 1 already has this ID");
    }

    @Test
    void shouldRejectMixingV1AndV2RulesWithTheMessageForTheFirstGeneration() {
        assertRejected(config(legacyRule("v1", "a/", days(1)), rule("v2", "<Prefix>b/</Prefix>", days(1))),
                S3ErrorCode.InvalidRequest, "<Filter> cannot be used");
        assertRejected(config(rule("v2", "<Prefix>b/</Prefix>", days(1)), legacyRule("v1", "a/", days(1))),
                S3ErrorCode.InvalidRequest, "rule-level <Prefix> cannot be used");
    }

    @Test
    void shouldRejectOverlappingV1PrefixesForTheSameActionOnly() {
        assertRejected(config(legacyRule("x", "x", days(1)), legacyRule("xy", "xy", days(2))),
                S3ErrorCode.InvalidRequest, "overlaps the prefix 'x'");
        assertRejected(config(legacyRule("all", "", days(1)), legacyRule("logs", "logs/", days(2))),
                S3ErrorCode.InvalidRequest, "same action type Expiration");
        assertAccepted(config(legacyRule("x", "x", days(1)), legacyRule("xy", "xy",
                "<AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>"
                        + "</AbortIncompleteMultipartUpload>")));
        assertAccepted(config(legacyRule("a", "test1/", days(1)), legacyRule("b", "test2/", days(2))));
    }

    @Test
    void shouldAcceptOverlappingV2Filters() {
        assertAccepted(config(rule("all", "<Prefix></Prefix>", days(10)), rule("a", "<Prefix>a</Prefix>", days(5))));
    }

    @Test
    void shouldRejectDuplicateTagKeysInAnd() {
        assertRejected(config(rule("r", "<And>" + TAG + "<Tag><Key>env</Key><Value>dev</Value></Tag></And>", days(1))),
                S3ErrorCode.InvalidRequest, "tag key \"env\" appears twice");
    }

    @Test
    void shouldRejectSizeBoundsOutOfRange() {
        assertRejected(config(rule("r", "<ObjectSizeLessThan>0</ObjectSizeLessThan>", days(1))),
                S3ErrorCode.InvalidRequest, "ObjectSizeLessThan is 0");
        assertRejected(config(rule("r", "<ObjectSizeGreaterThan>-1</ObjectSizeGreaterThan>", days(1))),
                S3ErrorCode.InvalidRequest, "ObjectSizeGreaterThan is -1");
        assertRejected(config(rule("r", "<ObjectSizeGreaterThan>1099511627776001</ObjectSizeGreaterThan>", days(1))),
                S3ErrorCode.InvalidRequest, "between 0 and");
        assertAccepted(config(rule("r", "<ObjectSizeGreaterThan>0</ObjectSizeGreaterThan>", days(1))));
    }

    @Test
    void shouldRequireLessThanAboveGreaterThan() {
        assertRejected(config(rule("r", "<And><ObjectSizeGreaterThan>1000</ObjectSizeGreaterThan>"
                        + "<ObjectSizeLessThan>1000</ObjectSizeLessThan></And>", days(1))),
                S3ErrorCode.InvalidRequest, "must be greater than ObjectSizeGreaterThan");
    }

    @Test
    void shouldRequireAtLeastOneAction() {
        assertRejected(config(rule("r", "", "")), S3ErrorCode.InvalidRequest, "has no action");
    }

    @Test
    void shouldRequirePositiveExpirationDays() {
        assertRejected(config(rule("r", "", days(0))), S3ErrorCode.InvalidArgument, "Expiration Days is 0");
        assertRejected(config(rule("r", "", days(-3))), S3ErrorCode.InvalidArgument, "positive integer");
    }

    @Test
    void shouldRequireExpirationDatesAtMidnightUtc() {
        assertRejected(config(rule("r", "", "<Expiration><Date>2024-01-01T10:00:00Z</Date></Expiration>")),
                S3ErrorCode.InvalidArgument, "not at midnight UTC");
        assertRejected(config(rule("r", "", "<Expiration><Date>2024-01-01T00:00:00+02:00</Date></Expiration>")),
                S3ErrorCode.InvalidArgument, "not at midnight UTC");
        assertAccepted(config(rule("r", "", "<Expiration><Date>2024-01-01T00:00:00.000Z</Date></Expiration>")));
        assertAccepted(config(rule("r", "", "<Expiration><Date>2024-01-01T02:00:00+02:00</Date></Expiration>")));
    }

    @Test
    void shouldRequirePositiveNoncurrentDaysAndNewerNoncurrentVersions() {
        assertRejected(config(rule("r", "", "<NoncurrentVersionExpiration><NoncurrentDays>0</NoncurrentDays>"
                + "</NoncurrentVersionExpiration>")), S3ErrorCode.InvalidArgument, "NoncurrentDays is 0");
        assertRejected(config(rule("r", "", "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                        + "<NewerNoncurrentVersions>0</NewerNoncurrentVersions></NoncurrentVersionExpiration>")),
                S3ErrorCode.InvalidArgument, "NewerNoncurrentVersions is 0");
    }

    @Test
    void shouldRejectAKeepCountWithoutNoncurrentDaysAsS3Does() {
        assertRejected(config(rule("r", "", "<NoncurrentVersionExpiration><NewerNoncurrentVersions>2"
                + "</NewerNoncurrentVersions></NoncurrentVersionExpiration>")), S3ErrorCode.MalformedXML,
                "needs <NoncurrentDays>");
    }

    @Test
    void shouldRejectNewerNoncurrentVersionsInAV1Configuration() {
        assertRejected(config(legacyRule("r", "a/", "<NoncurrentVersionExpiration><NoncurrentDays>1</NoncurrentDays>"
                        + "<NewerNoncurrentVersions>2</NewerNoncurrentVersions></NoncurrentVersionExpiration>")),
                S3ErrorCode.InvalidRequest, "Lifecycle V2");
    }

    @Test
    void shouldRejectAbortRulesWithTagOrSizeFilters() {
        String abort = "<AbortIncompleteMultipartUpload><DaysAfterInitiation>7</DaysAfterInitiation>"
                + "</AbortIncompleteMultipartUpload>";
        assertRejected(config(rule("r", "<And><Prefix>logs/</Prefix>" + TAG + "</And>", abort)),
                S3ErrorCode.InvalidRequest, "AbortIncompleteMultipartUpload cannot be combined with a tag filter");
        assertRejected(config(rule("r", "<ObjectSizeGreaterThan>10</ObjectSizeGreaterThan>", abort)),
                S3ErrorCode.InvalidRequest, "with an object size filter");
        assertRejected(config(rule("r", "", "<AbortIncompleteMultipartUpload><DaysAfterInitiation>0"
                + "</DaysAfterInitiation></AbortIncompleteMultipartUpload>")), S3ErrorCode.InvalidArgument,
                "DaysAfterInitiation is 0");
    }

    @Test
    void shouldRejectExpiredObjectDeleteMarkerWithTagOrSizeFilters() {
        String eodm = "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>";
        assertRejected(config(rule("r", TAG, eodm)), S3ErrorCode.InvalidRequest, "with a tag filter");
        assertRejected(config(rule("r", "<ObjectSizeLessThan>1024</ObjectSizeLessThan>", eodm)),
                S3ErrorCode.InvalidRequest, "with an object size filter");
    }

    @Test
    void shouldApplyS3sTransitionLimits() {
        assertRejected(config(rule("r", "", "<Transition><Days>29</Days><StorageClass>STANDARD_IA</StorageClass>"
                + "</Transition>")), S3ErrorCode.InvalidArgument, "needs at least 30 days");
        assertRejected(config(rule("r", "", "<Transition><Days>-1</Days><StorageClass>GLACIER</StorageClass>"
                + "</Transition>")), S3ErrorCode.InvalidArgument, "must not be negative");
        assertRejected(config(rule("r", "", "<NoncurrentVersionTransition><NoncurrentDays>10</NoncurrentDays>"
                        + "<StorageClass>ONEZONE_IA</StorageClass></NoncurrentVersionTransition>")),
                S3ErrorCode.InvalidArgument, "needs at least 30 days");
        assertAccepted(config(rule("r", "", "<Transition><Days>0</Days><StorageClass>GLACIER</StorageClass>"
                + "</Transition>")));
    }

    @Test
    void shouldRejectEmptyTagKeys() {
        assertRejected(config(rule("r", "<Tag><Key></Key><Value>v</Value></Tag>", days(1))),
                S3ErrorCode.InvalidRequest, "must be 1 to 128 characters");
    }

    @Test
    void shouldReportSchemaErrorsBeforeRangeErrors() {
        // A one-predicate <And> (schema) and a negative size (range): S3 answers with the schema error.
        assertRejected(config(rule("r", "<And><ObjectSizeLessThan>-1</ObjectSizeLessThan></And>", days(365))),
                S3ErrorCode.MalformedXML, "at least two predicates");
    }

    @Test
    void shouldAcceptAThousandRules() {
        String[] rules = new String[1000];
        for (int i = 0; i < rules.length; i++) {
            rules[i] = rule("r" + i, "<Prefix>p" + i + "/</Prefix>", days(1));
        }
        assertAccepted(config(rules));
    }
}
