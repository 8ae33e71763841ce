package io.tidemark.lifecycle.engine;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One lifecycle rule flattened the way SeaweedFS's {@code ParseCanonical} does before hashing: a single
 * prefix, a tag map, and zero for every number that is not set. Transitions, the ID and the status do not
 * take part.
 *
 * <p>One filter is lost in that flattening: {@code ObjectSizeGreaterThan} 0 (every object but the empty ones)
 * and no size floor at all both read as 0. {@code zeroSizeFloor} keeps them apart so that an edit between
 * the two changes the hash; it is written into the hash only when set, so every other rule hashes exactly as
 * upstream's does.
 *
 * @param expirationDate {@code null} when the rule has no Expiration Date
 * @param zeroSizeFloor  the filter says {@code ObjectSizeGreaterThan} 0 explicitly
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
        int abortMultipartDays,
        boolean zeroSizeFloor) {

    public CanonicalRule {
        Objects.requireNonNull(prefix, "prefix");
        tags = Map.copyOf(tags);
        if (zeroSizeFloor && sizeGreaterThan != 0) {
            throw new IllegalArgumentException("a zero size floor with ObjectSizeGreaterThan " + sizeGreaterThan);
        }
    }

    /** A rule as upstream flattens it, without an explicit zero size floor. */
    public CanonicalRule(String prefix, Map<String, String> tags, long sizeGreaterThan, long sizeLessThan,
                         int expirationDays, Instant expirationDate, boolean expiredObjectDeleteMarker,
                         int noncurrentDays, int newerNoncurrentVersions, int abortMultipartDays) {
        this(prefix, tags, sizeGreaterThan, sizeLessThan, expirationDays, expirationDate, expiredObjectDeleteMarker,
                noncurrentDays, newerNoncurrentVersions, abortMultipartDays, false);
    }

    public RuleHash hash() {
        return RuleHash.compute(this);
    }
}
