package io.tidemark.lifecycle.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

class DueTimeProperties {

    private static final Instant BASE = Instant.parse("2024-01-01T00:00:00Z");

    @Property(tries = 500)
    void aMatchThatIsDueStaysDueAsTimeAdvances(@ForAll("ruleSets") RuleSet rules,
                                               @ForAll("versions") ObjectVersion version,
                                               @ForAll("versioning") BucketVersioning versioning,
                                               @ForAll @LongRange(min = 0, max = 400L * 86400) long firstSeconds,
                                               @ForAll @LongRange(min = 0, max = 400L * 86400) long laterBySeconds) {
        Instant first = BASE.plusSeconds(firstSeconds);
        Evaluation earlier = rules.evaluate(version, versioning, first);
        Evaluation later = rules.evaluate(version, versioning, first.plusSeconds(laterBySeconds));
        if (earlier.due().isPresent()) {
            assertThat(later.due()).isPresent();
            assertThat(later.action()).isEqualTo(earlier.action());
        }
    }

    @Property(tries = 500)
    void anUpcomingMatchFallsDueExactlyAtItsInstant(@ForAll("ruleSets") RuleSet rules,
                                                    @ForAll("versions") ObjectVersion version,
                                                    @ForAll("versioning") BucketVersioning versioning,
                                                    @ForAll @LongRange(min = 0, max = 400L * 86400) long nowSeconds) {
        Instant now = BASE.plusSeconds(nowSeconds);
        Evaluation atNow = rules.evaluate(version, versioning, now);
        atNow.upcoming().ifPresent(next -> {
            assertThat(next.dueAt()).isAfter(now);
            // Nothing falls due between now and the earliest upcoming instant: a nanosecond before it, the verdict
            // is the one of now, and the same match is still the next to come.
            Evaluation justBefore = rules.evaluate(version, versioning, next.dueAt().minusNanos(1));
            assertThat(justBefore.due().map(DueTimeProperties::describe))
                    .isEqualTo(atNow.due().map(DueTimeProperties::describe));
            assertThat(justBefore.upcoming().map(DueTimeProperties::describe)).contains(describe(next));
            // At the instant itself it is due (it, or a match S3 prefers that fell due with it).
            Evaluation at = rules.evaluate(version, versioning, next.dueAt());
            assertThat(at.due()).isPresent();
            assertThat(at.due().get().dueAt()).isBeforeOrEqualTo(next.dueAt());
        });
    }

    private static String describe(RuleMatch match) {
        return match.ruleId() + "/" + match.kind() + "/" + match.action() + "@" + match.dueAt();
    }

    @Property(tries = 1000)
    void awsDueTimesAreTheFirstDayBoundaryAtOrAfterTheExactOne(@ForAll @LongRange(min = 0, max = 4_000_000_000L) long seconds,
                                                               @ForAll @IntRange(min = 0, max = 999_999_999) int nanos,
                                                               @ForAll @IntRange(min = 1, max = 3650) int days,
                                                               @ForAll @IntRange(min = 1, max = 86400) int daySeconds) {
        Duration day = Duration.ofSeconds(daySeconds);
        Instant base = Instant.ofEpochSecond(seconds, nanos);
        Instant exact = LifecycleCalendar.of(DuePolicy.EXACT, day).dueAt(base, days);
        Instant aws = LifecycleCalendar.of(DuePolicy.AWS, day).dueAt(base, days);
        assertThat(exact).isEqualTo(base.plus(day.multipliedBy(days)));
        assertThat(aws).isAfterOrEqualTo(exact).isBefore(exact.plus(day));
        assertThat(aws.getNano()).isZero();
        assertThat(Math.floorMod(aws.getEpochSecond(), daySeconds)).isZero();
    }

    @Provide
    Arbitrary<BucketVersioning> versioning() {
        return Arbitraries.of(BucketVersioning.class);
    }

    @Provide
    Arbitrary<RuleSet> ruleSets() {
        Arbitrary<String> prefix = Arbitraries.of("", "a", "a/", "b");
        Arbitrary<String> filter = Arbitraries.oneOf(prefix.map(p -> "<Prefix>" + p + "</Prefix>"),
                Arbitraries.just("<Tag><Key>t</Key><Value>1</Value></Tag>"),
                Arbitraries.just("<ObjectSizeGreaterThan>50</ObjectSizeGreaterThan>"));
        Arbitrary<String> action = Arbitraries.oneOf(
                Arbitraries.integers().between(1, 60).map(d -> "<Expiration><Days>" + d + "</Days></Expiration>"),
                Arbitraries.integers().between(0, 300).map(d -> "<Expiration><Date>"
                        + BASE.plus(Duration.ofDays(d)) + "</Date></Expiration>"),
                Arbitraries.just("<Expiration><ExpiredObjectDeleteMarker>true</ExpiredObjectDeleteMarker></Expiration>"),
                Combinators.combine(Arbitraries.integers().between(1, 60), Arbitraries.integers().between(0, 3))
                        .as((d, keep) -> "<NoncurrentVersionExpiration><NoncurrentDays>" + d + "</NoncurrentDays>"
                                + (keep > 0 ? "<NewerNoncurrentVersions>" + keep + "</NewerNoncurrentVersions>" : "")
                                + "</NoncurrentVersionExpiration>"));
        Arbitrary<String> rule = Combinators.combine(filter, action)
                .as((f, a) -> a.contains("ExpiredObjectDeleteMarker") && !f.contains("Prefix")
                        ? "<Filter></Filter><Status>Enabled</Status>" + a
                        : "<Filter>" + f + "</Filter><Status>Enabled</Status>" + a);
        Arbitrary<LifecycleCalendar> calendars = Combinators.combine(Arbitraries.of(DuePolicy.class),
                Arbitraries.of(Duration.ofDays(1), Duration.ofSeconds(10))).as(LifecycleCalendar::of);
        return Combinators.combine(rule.list().ofMinSize(1).ofMaxSize(5), calendars).as((list, calendar) -> {
            StringBuilder doc = new StringBuilder("<LifecycleConfiguration>");
            for (int i = 0; i < list.size(); i++) {
                doc.append("<Rule><ID>r").append(i).append("</ID>").append(list.get(i)).append("</Rule>");
            }
            try {
                return RuleCompiler.compile(LifecycleConfigs.parseAndValidate(doc.append("</LifecycleConfiguration>")
                        .toString()), calendar);
            } catch (LifecycleConfigException e) {
                throw new AssertionError(e.describe(), e);
            }
        });
    }

    @Provide
    Arbitrary<ObjectVersion> versions() {
        Arbitrary<Instant> times = Arbitraries.longs().between(0, 200L * 86400).map(BASE::plusSeconds);
        return Combinators.combine(Arbitraries.of("a", "a/x", "b/y", "c"), Arbitraries.longs().between(0, 100),
                        Arbitraries.of(Map.<String, String>of(), Map.of("t", "1")), times, Arbitraries.of(true, false),
                        Arbitraries.of(true, false), Arbitraries.integers().between(1, 4),
                        Arbitraries.integers().between(0, 4))
                .as((key, size, tags, mod, latest, marker, versions, rank) -> new ObjectVersion(key,
                        marker ? 0 : size, marker ? Map.of() : tags, mod, latest, marker, "v", latest ? null
                        : mod.plusSeconds(3600), versions, latest ? null : rank));
    }
}
