package io.tidemark.lifecycle.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class CanonicalFormProperties {

    @Property(tries = 300)
    void parsingTheCanonicalFormGivesBackTheSameConfiguration(@ForAll("configurations") LifecycleConfiguration config)
            throws Exception {
        String canonical = LifecycleXmlWriter.write(config);
        assertThat(LifecycleXmlParser.parse(canonical)).isEqualTo(config);
    }

    @Property(tries = 300)
    void canonicalisingIsIdempotent(@ForAll("configurations") LifecycleConfiguration config) throws Exception {
        String once = LifecycleXmlWriter.write(LifecycleXmlParser.parse(LifecycleXmlWriter.write(config)));
        assertThat(LifecycleXmlWriter.write(LifecycleXmlParser.parse(once))).isEqualTo(once);
    }

    @Provide
    Arbitrary<LifecycleConfiguration> configurations() {
        return rules().list().ofMinSize(1).ofMaxSize(6).map(LifecycleConfiguration::new);
    }

    static Arbitrary<String> text() {
        // Whole code points XML 1.0 can carry: markup characters, a tab and a non-BMP character included.
        return Arbitraries.of("a", "b", "/", "-", "_", ".", ":", "<", ">", "&", "\"", "'", " ", "\u00e9", "\t",
                        "\ud83d\ude00")
                .list().ofMaxSize(12).map(parts -> String.join("", parts));
    }

    static Arbitrary<FilterTag> tags() {
        return Combinators.combine(text().filter(s -> !s.isEmpty()), text()).as(FilterTag::new);
    }

    static Arbitrary<Long> sizes() {
        return Arbitraries.longs().between(-5, 1_000_000_000_000L).injectNull(0.5);
    }

    static Arbitrary<RuleFilter> filters() {
        Arbitrary<RuleFilter> and = Combinators.combine(text().injectNull(0.3), tags().list().ofMaxSize(3), sizes(), sizes())
                .as(FilterAnd::new)
                .filter(a -> a.predicateCount() >= 2)
                .map(RuleFilter::ofAnd);
        return Arbitraries.oneOf(
                Arbitraries.just(RuleFilter.EMPTY),
                text().map(RuleFilter::ofPrefix),
                tags().map(RuleFilter::ofTag),
                Arbitraries.longs().between(0, 1 << 30).map(n -> new RuleFilter(null, null, n, null, null)),
                Arbitraries.longs().between(1, 1 << 30).map(n -> new RuleFilter(null, null, null, n, null)),
                and);
    }

    static Arbitrary<Instant> dates() {
        return Arbitraries.longs().between(0, 40_000).map(d -> Instant.EPOCH.plus(d, ChronoUnit.DAYS));
    }

    static Arbitrary<Expiration> expirations() {
        return Arbitraries.oneOf(
                Arbitraries.integers().between(-3, 5000).map(Expiration::afterDays),
                dates().map(Expiration::onDate),
                Arbitraries.of(true, false).map(Expiration::expiredObjectDeleteMarker));
    }

    static Arbitrary<LifecycleRule> rules() {
        Arbitrary<String> ids = text().injectNull(0.2);
        Arbitrary<RuleStatus> status = Arbitraries.of(RuleStatus.class);
        Arbitrary<Boolean> legacy = Arbitraries.of(true, false);
        Arbitrary<Expiration> expiration = expirations().injectNull(0.3);
        Arbitrary<NoncurrentVersionExpiration> nve = Combinators.combine(Arbitraries.integers().between(0, 400),
                Arbitraries.integers().between(0, 100).injectNull(0.5)).as(NoncurrentVersionExpiration::new).injectNull(0.5);
        Arbitrary<AbortIncompleteMultipartUpload> abort = Arbitraries.integers().between(0, 30)
                .map(AbortIncompleteMultipartUpload::new).injectNull(0.6);
        Arbitrary<List<Transition>> transitions = Combinators.combine(
                        Arbitraries.integers().between(0, 400).injectNull(0.5), dates(), Arbitraries.of(StorageClass.class))
                .as((days, date, sc) -> new Transition(days, days == null ? date : null, sc))
                .list().ofMaxSize(2);
        Arbitrary<List<NoncurrentVersionTransition>> nvts = Combinators.combine(Arbitraries.integers().between(0, 400),
                        Arbitraries.of(StorageClass.class), Arbitraries.integers().between(1, 10).injectNull(0.5))
                .as(NoncurrentVersionTransition::new).list().ofMaxSize(2);
        // A V1 rule selects by rule-level prefix, a V2 rule by filter; exactly one of the pair is set.
        Arbitrary<RuleFilter[]> selection = Combinators.combine(legacy, text(), filters())
                .as((isLegacy, prefix, filter) -> isLegacy
                        ? new RuleFilter[] {RuleFilter.ofPrefix(prefix), null}
                        : new RuleFilter[] {null, filter});
        return Combinators.combine(ids, status, selection, expiration, transitions, nvts, nve, abort)
                .as((id, st, sel, exp, tr, nvt, nonc, ab) -> new LifecycleRule(id, st,
                        sel[0] == null ? null : sel[0].prefix(), sel[1], exp, tr, nvt, nonc, ab));
    }
}
