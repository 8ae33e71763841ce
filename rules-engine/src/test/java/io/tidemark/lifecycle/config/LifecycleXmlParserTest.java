package io.tidemark.lifecycle.config;

import static io.tidemark.lifecycle.config.Docs.config;
import static io.tidemark.lifecycle.config.Docs.days;
import static io.tidemark.lifecycle.config.Docs.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class LifecycleXmlParserTest {

    private static void assertMalformed(String document, String messagePart) {
        ThrowingCallable parse = () -> LifecycleXmlParser.parse(document);
        assertThatThrownBy(parse)
                .isInstanceOf(LifecycleConfigException.class)
                .hasMessageContaining(messagePart)
                .extracting(e -> ((LifecycleConfigException) e).code())
                .isEqualTo(S3ErrorCode.MalformedXML);
    }

    @Nested
    class AcceptedForms {

        @Test
        void shouldReadTheS3NamespaceAndFreeElementOrder() throws Exception {
            String doc = "<LifecycleConfiguration" + Docs.NS + "><Rule><Expiration><Days>7</Days></Expiration>"
                    + "<ID>r1</ID><Prefix>logs/</Prefix><Status>Enabled</Status></Rule></LifecycleConfiguration>";
            LifecycleRule rule = LifecycleXmlParser.parse(doc).rules().get(0);
            assertThat(rule.id()).isEqualTo("r1");
            assertThat(rule.legacyPrefix()).isEqualTo("logs/");
            assertThat(rule.isLegacy()).isTrue();
            assertThat(rule.expiration()).isEqualTo(Expiration.afterDays(7));
        }

        @Test
        void shouldReadEmptyFilterAndSelfClosingPrefix() throws Exception {
            LifecycleConfiguration c = LifecycleXmlParser.parse(config(
                    "<Rule><ID>a</ID><Filter /><Status>Enabled</Status>" + days(1) + "</Rule>",
                    "<Rule><ID>b</ID><Filter><Prefix /></Filter><Status>Disabled</Status>" + days(1) + "</Rule>"));
            assertThat(c.rules().get(0).filter()).isEqualTo(RuleFilter.EMPTY);
            assertThat(c.rules().get(1).filter()).isEqualTo(RuleFilter.ofPrefix(""));
            assertThat(c.rules().get(1).status()).isEqualTo(RuleStatus.Disabled);
        }

        @Test
        void shouldReadAndWithPrefixTagsAndSizes() throws Exception {
            LifecycleRule r = LifecycleXmlParser.parse(config(rule("r", "<And><Prefix>doc/</Prefix>"
                    + "<Tag><Key>env</Key><Value>prod</Value></Tag><Tag><Key>tier</Key><Value>cold</Value></Tag>"
                    + "<ObjectSizeGreaterThan>500</ObjectSizeGreaterThan><ObjectSizeLessThan>64000</ObjectSizeLessThan>"
                    + "</And>", days(1)))).rules().get(0);
            assertThat(r.filter().and()).isEqualTo(new FilterAnd("doc/",
                    List.of(new FilterTag("env", "prod"), new FilterTag("tier", "cold")), 500L, 64000L));
        }

        @Test
        void shouldGiveAKeyOnlyTagTheEmptyValue() throws Exception {
            LifecycleRule r = LifecycleXmlParser.parse(config(rule("r", "<Tag><Key>archive</Key></Tag>", days(1))))
                    .rules().get(0);
            assertThat(r.filter().tag()).isEqualTo(new FilterTag("archive", ""));
        }

        @Test
        void shouldReadEveryActionKind() throws Exception {
            LifecycleRule r = LifecycleXmlParser.parse(config(rule("r", "",
                    "<Expiration><Date>2025-06-15T00:00:00.000Z</Date></Expiration>"
                            + "<Transition><Days>0</Days><StorageClass>GLACIER</StorageClass></Transition>"
                            + "<NoncurrentVersionTransition><NoncurrentDays>30</NoncurrentDays>"
                            + "<StorageClass>STANDARD_IA</StorageClass></NoncurrentVersionTransition>"
                            + "<NoncurrentVersionExpiration><NoncurrentDays>5</NoncurrentDays>"
                            + "<NewerNoncurrentVersions>3</NewerNoncurrentVersions></NoncurrentVersionExpiration>"
                            + "<AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation>"
                            + "</AbortIncompleteMultipartUpload>"))).rules().get(0);
            assertThat(r.expiration().date()).isEqualTo(Instant.parse("2025-06-15T00:00:00Z"));
            assertThat(r.transitions()).containsExactly(new Transition(0, null, StorageClass.GLACIER));
            assertThat(r.noncurrentVersionTransitions())
                    .containsExactly(new NoncurrentVersionTransition(30, StorageClass.STANDARD_IA, null));
            assertThat(r.noncurrentVersionExpiration()).isEqualTo(new NoncurrentVersionExpiration(5, 3));
            assertThat(r.abortIncompleteMultipartUpload()).isEqualTo(new AbortIncompleteMultipartUpload(2));
        }

        @Test
        void shouldReadExpiredObjectDeleteMarkerAndDateWithOffset() throws Exception {
            LifecycleRule a = LifecycleXmlParser.parse(config(rule("r", "",
                    "<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>")))
                    .rules().get(0);
            assertThat(a.expiration()).isEqualTo(Expiration.expiredObjectDeleteMarker(true));
            LifecycleRule b = LifecycleXmlParser.parse(config(rule("r", "",
                    "<Expiration><Date>2024-01-01T02:00:00+02:00</Date></Expiration>"))).rules().get(0);
            assertThat(b.expiration().date()).isEqualTo(Instant.parse("2024-01-01T00:00:00Z"));
        }

        @Test
        void shouldIgnoreCommentsAndWhitespaceAroundNumbers() throws Exception {
            LifecycleRule r = LifecycleXmlParser.parse("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + "<!-- managed by terraform -->\n<LifecycleConfiguration>\n  <Rule>\n    <ID>r</ID>\n"
                    + "    <Filter></Filter>\n    <Status>Enabled</Status>\n"
                    + "    <Expiration><Days> 30 </Days></Expiration>\n  </Rule>\n</LifecycleConfiguration>\n")
                    .rules().get(0);
            assertThat(r.expiration().days()).isEqualTo(30);
        }
    }

    @Nested
    class SchemaViolations {

        @Test
        void shouldRejectAnUnknownElementNamingTheRule() {
            assertMalformed(config(rule("r1", "", "<DelMarkerExpiration><Days>1</Days></DelMarkerExpiration>")),
                    "rule 1 (ID \"r1\"): <DelMarkerExpiration> is not allowed in <Rule>");
        }

        @Test
        void shouldRejectAnotherRootElement() {
            assertMalformed("<BucketLifecycleConfiguration><Rule/></BucketLifecycleConfiguration>",
                    "root element must be <LifecycleConfiguration>");
        }

        @Test
        void shouldRejectZeroRulesAndMoreThanAThousand() {
            assertMalformed(config(), "no <Rule>");
            String[] rules = new String[1001];
            for (int i = 0; i < rules.length; i++) {
                rules[i] = rule("r" + i, "<Prefix>p" + i + "/</Prefix>", days(1));
            }
            assertMalformed(config(rules), "1001 rules");
        }

        @Test
        void shouldRejectAStatusThatIsNotExactlyEnabledOrDisabled() {
            assertMalformed(config("<Rule><ID>r</ID><Filter/><Status>enabled</Status>" + days(1) + "</Rule>"),
                    "must be exactly Enabled or Disabled");
            assertMalformed(config("<Rule><ID>r</ID><Filter/><Status></Status>" + days(1) + "</Rule>"),
                    "must be exactly Enabled or Disabled");
            assertMalformed(config("<Rule><ID>r</ID><Filter/>" + days(1) + "</Rule>"), "<Status> is required");
        }

        @Test
        void shouldRequireFilterOrRulePrefixButNotBoth() {
            assertMalformed(config("<Rule><ID>r</ID><Status>Enabled</Status>" + days(3) + "</Rule>"),
                    "either <Filter> or a rule-level <Prefix>");
            assertMalformed(config("<Rule><ID>r</ID><Filter/><Prefix>a</Prefix><Status>Enabled</Status>"
                    + days(3) + "</Rule>"), "not both");
        }

        @Test
        void shouldRejectAFilterWithTwoPredicatesOutsideAnd() {
            assertMalformed(config(rule("r", "<Prefix>a/</Prefix><Tag><Key>k</Key><Value>v</Value></Tag>", days(1))),
                    "only one predicate");
            assertMalformed(config(rule("r", "<Prefix>a/</Prefix><ObjectSizeGreaterThan>1</ObjectSizeGreaterThan>",
                    days(1))), "only one predicate");
            assertMalformed(config(rule("r", "<Tag><Key>k</Key><Value>v</Value></Tag><And><Prefix>a</Prefix>"
                    + "<Tag><Key>k</Key><Value>v</Value></Tag></And>", days(1))), "only one predicate");
        }

        @Test
        void shouldRejectAnAndWithFewerThanTwoPredicates() {
            assertMalformed(config(rule("r", "<And><Prefix>/a/b/c</Prefix></And>", days(1))), "at least two predicates");
            assertMalformed(config(rule("r", "<And><Tag><Key>k</Key><Value>v</Value></Tag></And>", days(1))),
                    "at least two predicates");
        }

        @Test
        void shouldCountAnEmptyPrefixAsAPredicateOfAnd() throws Exception {
            LifecycleRule r = LifecycleXmlParser.parse(config(rule("r",
                    "<And><Prefix></Prefix><Tag><Key>k</Key><Value>v</Value></Tag></And>", days(1)))).rules().get(0);
            assertThat(r.filter().and().predicateCount()).isEqualTo(2);
        }

        @Test
        void shouldRequireExactlyOneChoiceInsideExpiration() {
            assertMalformed(config(rule("r", "", "<Expiration></Expiration>")), "exactly one of");
            assertMalformed(config(rule("r", "", "<Expiration><Days>1</Days>"
                    + "<ExpiredObjectDeleteMarker>false</ExpiredObjectDeleteMarker></Expiration>")), "exactly one of");
            assertMalformed(config(rule("r", "", "<Expiration><Days>1</Days><Date>2030-01-01T00:00:00Z</Date>"
                    + "</Expiration>")), "exactly one of");
        }

        @Test
        void shouldRejectValuesOfTheWrongType() {
            assertMalformed(config(rule("r", "", "<Expiration><Days>1.5</Days></Expiration>")), "must be an integer");
            assertMalformed(config(rule("r", "", "<Expiration><Days>99999999999</Days></Expiration>")),
                    "does not fit a 32-bit integer");
            assertMalformed(config(rule("r", "", "<Expiration><Date>tomorrow</Date></Expiration>")),
                    "not an ISO-8601 date");
            assertMalformed(config(rule("r", "", "<Expiration><ExpiredObjectDeleteMarker>yes"
                    + "</ExpiredObjectDeleteMarker></Expiration>")), "must be true or false");
            assertMalformed(config(rule("r", "<ObjectSizeLessThan>big</ObjectSizeLessThan>", days(1))),
                    "must be an integer");
        }

        @Test
        void shouldRequireNoncurrentDaysAndAbortDays() {
            assertMalformed(config(rule("r", "", "<NoncurrentVersionExpiration></NoncurrentVersionExpiration>")),
                    "needs <NoncurrentDays> or <NewerNoncurrentVersions>");
            assertMalformed(config(rule("r", "", "<AbortIncompleteMultipartUpload></AbortIncompleteMultipartUpload>")),
                    "needs <DaysAfterInitiation>");
        }

        @Test
        void shouldCheckTransitionShape() {
            assertMalformed(config(rule("r", "", "<Transition><Days>30</Days><Date>2030-01-01T00:00:00Z</Date>"
                    + "<StorageClass>GLACIER</StorageClass></Transition>")), "exactly one of <Days> and <Date>");
            assertMalformed(config(rule("r", "", "<Transition><Days>30</Days></Transition>")), "needs <StorageClass>");
            assertMalformed(config(rule("r", "", "<Transition><Days>30</Days><StorageClass>TAPE</StorageClass>"
                    + "</Transition>")), "not a storage class");
            assertMalformed(config(rule("r", "", "<NoncurrentVersionTransition><StorageClass>GLACIER</StorageClass>"
                    + "</NoncurrentVersionTransition>")), "needs <NoncurrentDays>");
        }

        @Test
        void shouldRejectRepeatedSingletonsAndStrayText() {
            assertMalformed(config("<Rule><ID>a</ID><ID>b</ID><Filter/><Status>Enabled</Status>" + days(1) + "</Rule>"),
                    "<ID> appears 2 times");
            assertMalformed(config(rule("r", "", days(1) + days(2))), "<Expiration> appears 2 times");
            assertMalformed(config("<Rule>oops<ID>a</ID><Filter/><Status>Enabled</Status>" + days(1) + "</Rule>"),
                    "holds text where only elements belong");
            assertMalformed(config(rule("r", "", "<Expiration><Days><Value>1</Value></Days></Expiration>")),
                    "must hold a value, not elements");
        }
    }

    @Nested
    class HostileInput {

        @Test
        void shouldRefuseDocumentTypeDeclarations() {
            assertMalformed("<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]>"
                    + config(rule("&b;", "", days(1))), "document type declarations are not allowed");
        }

        @Test
        void shouldNeverFetchExternalEntities() {
            assertMalformed("<?xml version=\"1.0\"?><!DOCTYPE l [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                    + config(rule("&x;", "", days(1))), "not allowed");
        }

        @Test
        void shouldRejectUndeclaredEntities() {
            assertMalformed(config(rule("&x;", "", days(1))), "");
        }

        @Test
        void shouldRefuseDocumentsOverTheSizeCap() {
            String padding = " ".repeat(SafeXmlReader.MAX_BYTES);
            assertMalformed(config(rule("r", "", days(1))) + padding, "over the limit");
        }

        @Test
        void shouldRefuseDeepNesting() {
            String deep = "<a>".repeat(50) + "</a>".repeat(50);
            assertMalformed(config(rule("r", "", days(1))).replace("<ID>r</ID>", "<ID>" + deep + "</ID>"),
                    "nested deeper than");
        }

        @Test
        void shouldRefuseForeignNamespaces() {
            assertMalformed("<LifecycleConfiguration xmlns=\"urn:evil\"><Rule/></LifecycleConfiguration>",
                    "foreign namespace");
        }

        @Test
        void shouldRefuseBrokenXml() {
            assertMalformed("<LifecycleConfiguration><Rule>", "not well-formed");
            assertMalformed("", "not well-formed");
            assertMalformed("not xml at all", "not well-formed");
        }
    }
}
