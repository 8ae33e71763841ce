package io.tidemark.seaweed;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One lifecycle rule flattened the way SeaweedFS's {@code ParseCanonical} does before hashing: a single
 * prefix, a tag map, and zero for every number that is not set. Transitions, the ID and the status do not
 * take part.
 *
 * @param expirationDate {@code null} when the rule has no Expiration Date
 */
public record CanonicalRule(
        String prefix,
        Map<String, String> tags,
        long sizeGreaterThan,
        long sizeLessThan,
        int expirationDays,
        Instant expirationDate,
        boolean expiredObjectDeleteMarker,
        int noncurrentDays,
        int newerNoncurrentVersions,
        int abortMultipartDays) {

    public CanonicalRule {
        Objects.requireNonNull(prefix, "prefix");
        tags = Map.copyOf(tags);
    }

    public RuleHash hash() {
        return RuleHash.compute(this);
    }
}
