package io.tidemark.lifecycle.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.hash.GoTime;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RuleHashTest {

    private static CanonicalRule rule(String prefix, Map<String, String> tags, long gt, long lt, int days,
                                      Instant date, boolean marker, int noncurrentDays, int newer, int abortDays) {
        return new CanonicalRule(prefix, tags, gt, lt, days, date, marker, noncurrentDays, newer, abortDays);
    }

    private static CanonicalRule expireAfter(String prefix, int days) {
        return rule(prefix, Map.of(), 0, 0, days, null, false, 0, 0, 0);
    }

    @Test
    void shouldMatchSeaweedGoldenForPrefixAndDays() {
        assertThat(expireAfter("logs/", 30).hash().toHex()).isEqualTo("0c8cc7219c442e3e");
    }

    @Test
    void shouldMatchSeaweedGoldenForDaysOnly() {
        assertThat(expireAfter("", 1).hash().toHex()).isEqualTo("908967e18331cc64");
    }

    @Test
    void shouldMatchSeaweedGoldenForDate() {
        CanonicalRule r = rule("", Map.of(), 0, 0, 0, Instant.parse("2025-06-15T00:00:00Z"), false, 0, 0, 0);
        assertThat(r.hash().toHex()).isEqualTo("b199cef5a9e72766");
    }

    @Test
    void shouldHashTagsSizesAndNoncurrentFieldsInTheirSlots() {
        CanonicalRule r = rule("docs/", Map.of("env", "prod", "tier", "cold"), 100, 1000, 0, null, false, 30, 2, 0);
        assertThat(r.hash().toHex()).isEqualTo("4366c0b893fd718d");
        assertThat(rule("", Map.of(), 0, 0, 0, null, false, 0, 0, 7).hash().toHex()).isEqualTo("ec86412bcb4347f6");
    }

    @Test
    void shouldRenderDateFractionsTheWayGoDoes() {
        CanonicalRule r = rule("", Map.of(), 0, 0, 0, Instant.parse("2025-06-15T00:00:00.500Z"), false, 0, 0, 0);
        assertThat(GoTime.rfc3339Nano(Instant.parse("2025-06-15T00:00:00.500Z"))).isEqualTo("2025-06-15T00:00:00.5Z");
        assertThat(r.hash().toHex()).isEqualTo("ee2c6bd330d7d9bf");
    }

    @Test
    void shouldIgnoreTagOrder() {
        Map<String, String> ab = new LinkedHashMap<>();
        ab.put("a", "1");
        ab.put("b", "2");
        Map<String, String> ba = new LinkedHashMap<>();
        ba.put("b", "2");
        ba.put("a", "1");
        assertThat(rule("", ab, 0, 0, 30, null, false, 0, 0, 0).hash())
                .isEqualTo(rule("", ba, 0, 0, 30, null, false, 0, 0, 0).hash());
    }

    @Test
    void shouldTellApartPrefixesThatDifferOnlyByTrailingSlash() {
        assertThat(expireAfter("logs", 30).hash()).isNotEqualTo(expireAfter("logs/", 30).hash());
    }

    @Test
    void shouldNotLetAForgedTagCollideWithAnotherSplit() {
        CanonicalRule r1 = rule("", Map.of("a=b", "c"), 0, 0, 30, null, false, 0, 0, 0);
        CanonicalRule r2 = rule("", Map.of("a", "b=c"), 0, 0, 30, null, false, 0, 0, 0);
        assertThat(r1.hash()).isNotEqualTo(r2.hash());
    }

    @Test
    void shouldRoundTripThroughHexAndCompareUnsigned() {
        RuleHash h = RuleHash.fromHex("ff00000000000000");
        assertThat(RuleHash.fromHex(h.toHex())).isEqualTo(h);
        assertThat(h.compareTo(RuleHash.fromHex("7f00000000000000"))).isPositive();
    }
}
