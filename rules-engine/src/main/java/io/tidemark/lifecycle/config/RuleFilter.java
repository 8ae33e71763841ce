package io.tidemark.lifecycle.config;

import java.util.List;

/**
 * A rule's {@code <Filter>} exactly as written: at most one of its fields is set (S3's schema), and an empty
 * filter selects the whole bucket.
 */
public record RuleFilter(String prefix, FilterTag tag, Long objectSizeGreaterThan, Long objectSizeLessThan,
                         FilterAnd and) {

    public static final RuleFilter EMPTY = new RuleFilter(null, null, null, null, null);

    public static RuleFilter ofPrefix(String prefix) {
        return new RuleFilter(prefix, null, null, null, null);
    }

    public static RuleFilter ofTag(FilterTag tag) {
        return new RuleFilter(null, tag, null, null, null);
    }

    public static RuleFilter ofAnd(FilterAnd and) {
        return new RuleFilter(null, null, null, null, and);
    }

    /** The prefix this filter requires, or the empty string. */
    public String effectivePrefix() {
        if (and != null) {
            return and.prefix() == null ? "" : and.prefix();
        }
        return prefix == null ? "" : prefix;
    }

    /** Every tag this filter requires. */
    public List<FilterTag> effectiveTags() {
        if (and != null) {
            return and.tags();
        }
        return tag == null ? List.of() : List.of(tag);
    }

    public Long effectiveSizeGreaterThan() {
        return and != null ? and.objectSizeGreaterThan() : objectSizeGreaterThan;
    }

    public Long effectiveSizeLessThan() {
        return and != null ? and.objectSizeLessThan() : objectSizeLessThan;
    }

    public boolean usesTags() {
        return !effectiveTags().isEmpty();
    }

    public boolean usesObjectSize() {
        return effectiveSizeGreaterThan() != null || effectiveSizeLessThan() != null;
    }
}
