package io.tidemark.lifecycle.config;

import java.util.List;
import java.util.Objects;

/**
 * One {@code <Rule>} as written.
 *
 * @param id           {@code null} or empty when the document gave none (one is generated at compile time)
 * @param legacyPrefix the deprecated rule-level {@code <Prefix>} ("Lifecycle V1"), or {@code null}
 * @param filter       the {@code <Filter>}, or {@code null} for a V1 rule
 */
public record LifecycleRule(
        String id,
        RuleStatus status,
        String legacyPrefix,
        RuleFilter filter,
        Expiration expiration,
        List<Transition> transitions,
        List<NoncurrentVersionTransition> noncurrentVersionTransitions,
        NoncurrentVersionExpiration noncurrentVersionExpiration,
        AbortIncompleteMultipartUpload abortIncompleteMultipartUpload) {

    public LifecycleRule {
        Objects.requireNonNull(status, "status");
        transitions = List.copyOf(transitions);
        noncurrentVersionTransitions = List.copyOf(noncurrentVersionTransitions);
    }

    public boolean enabled() {
        return status == RuleStatus.Enabled;
    }

    /** A V1 rule selects objects by the rule-level prefix; a V2 rule by its filter. */
    public boolean isLegacy() {
        return filter == null;
    }

    /** The filter this rule applies, with a V1 prefix expressed as a prefix filter. */
    public RuleFilter effectiveFilter() {
        return filter != null ? filter : RuleFilter.ofPrefix(legacyPrefix == null ? "" : legacyPrefix);
    }

    public boolean hasAction() {
        return expiration != null || noncurrentVersionExpiration != null || abortIncompleteMultipartUpload != null
                || !transitions.isEmpty() || !noncurrentVersionTransitions.isEmpty();
    }

    public boolean hasId() {
        return id != null && !id.isEmpty();
    }

    /** How messages name this rule: its position and, when it has one, its ID. */
    public String label(int index) {
        return label(index, id);
    }

    static String label(int index, String id) {
        return "rule " + (index + 1) + (id != null && !id.isEmpty() ? " (ID \"" + id + "\")" : " (no ID)");
    }
}
