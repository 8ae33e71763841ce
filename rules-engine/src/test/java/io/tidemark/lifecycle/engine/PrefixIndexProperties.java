package io.tidemark.lifecycle.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class PrefixIndexProperties {

    record IndexedRule(String prefix, String tagKey, String tagValue) {
    }

    /** The index must find every rule whose prefix and tags fit, and nothing whose prefix does not. */
    @Property(tries = 500)
    void theIndexFindsExactlyTheRulesABruteForceScanWould(@ForAll("ruleLists") List<IndexedRule> specs,
                                                          @ForAll("keys") String key,
                                                          @ForAll("objectTags") Map<String, String> tags)
            throws LifecycleConfigException {
        StringBuilder doc = new StringBuilder("<LifecycleConfiguration>");
        for (int i = 0; i < specs.size(); i++) {
            IndexedRule s = specs.get(i);
            String filter = s.tagKey() == null ? "<Prefix>" + s.prefix() + "</Prefix>"
                    : "<And><Prefix>" + s.prefix() + "</Prefix><Tag><Key>" + s.tagKey() + "</Key><Value>"
                    + s.tagValue() + "</Value></Tag></And>";
            doc.append("<Rule><ID>r").append(i).append("</ID><Filter>").append(filter)
                    .append("</Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>");
        }
        RuleSet rules = RuleCompiler.compile(LifecycleConfigs.parseAndValidate(doc + "</LifecycleConfiguration>"),
                LifecycleCalendar.aws());
        PrefixIndex index = PrefixIndex.of(rules.rules());
        PrefixIndex.Candidates found = new PrefixIndex.Candidates();
        index.collect(key, tags, found);
        Set<Integer> got = new HashSet<>();
        for (int i = 0; i < found.size(); i++) {
            assertThat(got.add(found.get(i))).as("rule %d found twice", found.get(i)).isTrue();
        }
        Set<Integer> expected = new HashSet<>();
        for (int i = 0; i < specs.size(); i++) {
            IndexedRule s = specs.get(i);
            boolean tagFits = s.tagKey() == null || s.tagValue().equals(tags.get(s.tagKey()));
            if (key.startsWith(s.prefix()) && tagFits) {
                expected.add(i);
            }
        }
        assertThat(got).isEqualTo(expected);
    }

    @Provide
    Arbitrary<List<IndexedRule>> ruleLists() {
        Arbitrary<String> prefixes = Arbitraries.strings().withChars("ab/").ofMaxLength(4);
        Arbitrary<String> tagKeys = Arbitraries.of("k1", "k2").injectNull(0.5);
        return Combinators.combine(prefixes, tagKeys, Arbitraries.of("x", "y"))
                .as((p, k, v) -> new IndexedRule(p, k, k == null ? null : v))
                .list().ofMinSize(1).ofMaxSize(40);
    }

    @Provide
    Arbitrary<String> keys() {
        return Arbitraries.strings().withChars("ab/c").ofMaxLength(6);
    }

    @Provide
    Arbitrary<Map<String, String>> objectTags() {
        return Arbitraries.maps(Arbitraries.of("k1", "k2", "k3"), Arbitraries.of("x", "y")).ofMaxSize(3);
    }
}
