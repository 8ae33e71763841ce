package io.tidemark.lifecycle.engine;

import io.tidemark.lifecycle.config.Expiration;
import io.tidemark.lifecycle.config.FilterTag;
import io.tidemark.lifecycle.config.LifecycleConfiguration;
import io.tidemark.lifecycle.config.LifecycleRule;
import io.tidemark.lifecycle.config.NoncurrentVersionExpiration;
import io.tidemark.lifecycle.config.RuleFilter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Compiles a validated configuration into a {@link RuleSet}. */
public final class RuleCompiler {

    /** Prefix of the IDs given to rules the document left without one. */
    public static final String GENERATED_ID_PREFIX = "tm-";

    private RuleCompiler() {
    }

    /**
     * @param config a configuration that passed {@link io.tidemark.lifecycle.config.LifecycleValidator}
     */
    public static RuleSet compile(LifecycleConfiguration config, LifecycleCalendar calendar) {
        List<LifecycleRule> rules = config.rules();
        Set<String> usedIds = new HashSet<>();
        for (LifecycleRule rule : rules) {
            if (rule.hasId()) {
                usedIds.add(rule.id());
            }
        }
        List<CompiledRule> compiled = new ArrayList<>(rules.size());
        for (int i = 0; i < rules.size(); i++) {
            compiled.add(compileRule(i, rules.get(i), usedIds));
        }
        return new RuleSet(compiled, calendar);
    }

    /** SeaweedFS's flat view of a rule, from which its {@link RuleHash} is computed. */
    public static CanonicalRule canonical(LifecycleRule rule) {
        RuleFilter filter = rule.effectiveFilter();
        Map<String, String> tags = new LinkedHashMap<>();
        for (FilterTag tag : filter.effectiveTags()) {
            tags.put(tag.key(), tag.value());
        }
        Expiration e = rule.expiration();
        NoncurrentVersionExpiration nve = rule.noncurrentVersionExpiration();
        return new CanonicalRule(
                filter.effectivePrefix(),
                tags,
                orZero(filter.effectiveSizeGreaterThan()),
                orZero(filter.effectiveSizeLessThan()),
                e == null ? 0 : orZero(e.days()),
                e == null ? null : e.date(),
                e != null && Boolean.TRUE.equals(e.expiredObjectDeleteMarker()),
                nve == null ? 0 : orZero(nve.noncurrentDays()),
                nve == null ? 0 : orZero(nve.newerNoncurrentVersions()),
                rule.abortIncompleteMultipartUpload() == null ? 0
                        : rule.abortIncompleteMultipartUpload().daysAfterInitiation(),
                Long.valueOf(0).equals(filter.effectiveSizeGreaterThan()));
    }

    private static CompiledRule compileRule(int index, LifecycleRule rule, Set<String> usedIds) {
        CanonicalRule flat = canonical(rule);
        RuleHash hash = flat.hash();
        String id = rule.hasId() ? rule.id() : generatedId(hash, usedIds);
        RuleFilter filter = rule.effectiveFilter();
        return new CompiledRule(index, id, rule, hash, flat.prefix(), flat.tags(),
                filter.effectiveSizeGreaterThan(), filter.effectiveSizeLessThan(),
                flat.expirationDays(), flat.expirationDate(), flat.expiredObjectDeleteMarker(),
                flat.noncurrentDays(), flat.newerNoncurrentVersions(), flat.abortMultipartDays(),
                kinds(flat));
    }

    /**
     * A rule without an ID gets one derived from its content, so recompiling the same document (or the same
     * rule moved elsewhere in it) yields the same ID. Identical rules are told apart by a counter.
     */
    private static String generatedId(RuleHash hash, Set<String> usedIds) {
        String base = GENERATED_ID_PREFIX + hash.toHex();
        String id = base;
        for (int n = 2; !usedIds.add(id); n++) {
            id = base + "-" + n;
        }
        return id;
    }

    /** The gateway action kinds a rule can ask for, in SeaweedFS's order. */
    private static List<ActionKind> kinds(CanonicalRule rule) {
        List<ActionKind> kinds = new ArrayList<>();
        if (rule.expirationDays() > 0) {
            kinds.add(ActionKind.EXPIRATION_DAYS);
        }
        if (rule.expirationDate() != null) {
            kinds.add(ActionKind.EXPIRATION_DATE);
        }
        // S3 also clears expired object delete markers under a plain Expiration, not only under the flag.
        if (rule.expiredObjectDeleteMarker() || rule.expirationDays() > 0 || rule.expirationDate() != null) {
            kinds.add(ActionKind.EXPIRED_DELETE_MARKER);
        }
        if (rule.noncurrentDays() > 0) {
            kinds.add(ActionKind.NONCURRENT_DAYS);
        } else if (rule.newerNoncurrentVersions() > 0) {
            // Only in the seaweedfs validation mode: a keep count without days, decided by rank on walks.
            kinds.add(ActionKind.NEWER_NONCURRENT);
        }
        if (rule.abortMultipartDays() > 0) {
            kinds.add(ActionKind.ABORT_MPU);
        }
        return kinds;
    }

    private static long orZero(Long value) {
        return value == null ? 0 : value;
    }

    private static int orZero(Integer value) {
        return value == null ? 0 : value;
    }
}
