package io.tidemark.seaweed;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.engine.CanonicalRule;
import io.tidemark.lifecycle.engine.RuleHash;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

class HashProperties {

    @Property(tries = 300)
    void ruleHashIgnoresTagOrder(@ForAll("tagMaps") Map<String, String> tags, @ForAll @IntRange(min = 1, max = 999) int days) {
        List<String> keys = new ArrayList<>(tags.keySet());
        Collections.reverse(keys);
        Map<String, String> reversed = new LinkedHashMap<>();
        keys.forEach(k -> reversed.put(k, tags.get(k)));
        CanonicalRule a = new CanonicalRule("p/", tags, 0, 0, days, null, false, 0, 0, 0);
        CanonicalRule b = new CanonicalRule("p/", reversed, 0, 0, days, null, false, 0, 0, 0);
        assertThat(a.hash()).isEqualTo(b.hash());
    }

    @Property(tries = 300)
    void extendedHashIgnoresInsertionOrder(@ForAll("tagMaps") Map<String, String> attributes) {
        Map<String, byte[]> forward = new LinkedHashMap<>();
        attributes.forEach((k, v) -> forward.put(k, v.getBytes(StandardCharsets.UTF_8)));
        List<String> keys = new ArrayList<>(forward.keySet());
        Collections.shuffle(keys);
        Map<String, byte[]> shuffled = new LinkedHashMap<>();
        keys.forEach(k -> shuffled.put(k, forward.get(k)));
        assertThat(ExtendedHash.of(shuffled)).isEqualTo(ExtendedHash.of(forward));
    }

    /** Equal rules built apart hash alike; a rule that differs in any one field that acts hashes differently. */
    @Property(tries = 300)
    void ruleHashFollowsEveryFieldThatActsAndOnlyThem(@ForAll("tagMaps") Map<String, String> tags,
                                                     @ForAll @IntRange(min = 0, max = 8) int field) {
        CanonicalRule r = new CanonicalRule("p/", tags, 1, 2, 3, null, true, 4, 5, 6);
        CanonicalRule same = new CanonicalRule("p/", new LinkedHashMap<>(tags), 1, 2, 3, null, true, 4, 5, 6);
        assertThat(same.hash()).isEqualTo(r.hash());
        assertThat(r.hash().toBytes()).hasSize(RuleHash.LENGTH);
        Map<String, String> otherTags = new LinkedHashMap<>(tags);
        otherTags.put("added-key", "v");
        CanonicalRule changed = switch (field) {
            case 0 -> new CanonicalRule("q/", tags, 1, 2, 3, null, true, 4, 5, 6);
            case 1 -> new CanonicalRule("p/", otherTags, 1, 2, 3, null, true, 4, 5, 6);
            case 2 -> new CanonicalRule("p/", tags, 9, 2, 3, null, true, 4, 5, 6);
            case 3 -> new CanonicalRule("p/", tags, 1, 9, 3, null, true, 4, 5, 6);
            case 4 -> new CanonicalRule("p/", tags, 1, 2, 9, null, true, 4, 5, 6);
            case 5 -> new CanonicalRule("p/", tags, 1, 2, 3, null, false, 4, 5, 6);
            case 6 -> new CanonicalRule("p/", tags, 1, 2, 3, null, true, 9, 5, 6);
            case 7 -> new CanonicalRule("p/", tags, 1, 2, 3, null, true, 4, 9, 6);
            default -> new CanonicalRule("p/", tags, 1, 2, 3, null, true, 4, 5, 9);
        };
        assertThat(changed.hash()).as("field %d changed", field).isNotEqualTo(r.hash());
    }

    @Property(tries = 300)
    void shardsStayInRangeAndNarrowerShardsArePrefixesOfWiderOnes(@ForAll("keys") String key,
                                                                 @ForAll @IntRange(min = 1, max = 16) int bits) {
        int wide = ShardFunction.withBits(bits).shardOf("bucket", key);
        assertThat(wide).isBetween(0, (1 << bits) - 1);
        assertThat(ShardFunction.withBits(bits - 1).shardOf("bucket", key)).isEqualTo(wide >>> 1);
    }

    @Provide
    Arbitrary<Map<String, String>> tagMaps() {
        // Whole code points only: a protobuf or Go string cannot hold a lone surrogate.
        Arbitrary<String> s = Arbitraries.of("a", "Z", "9", "-", "=", "\u00e9", "\ud83d\ude00", "\uff21")
                .list().ofMaxSize(6).map(parts -> String.join("", parts));
        return Arbitraries.maps(s, s).ofMaxSize(6);
    }

    @Provide
    Arbitrary<String> keys() {
        return Arbitraries.strings().ofMaxLength(40);
    }
}
