package io.tidemark.lifecycle.config;

import java.util.List;

/**
 * The {@code <And>} operator of a filter: every predicate must hold.
 *
 * @param prefix                {@code null} when absent; an empty prefix is present and counts as a predicate
 * @param objectSizeGreaterThan {@code null} when absent
 * @param objectSizeLessThan    {@code null} when absent
 */
public record FilterAnd(String prefix, List<FilterTag> tags, Long objectSizeGreaterThan, Long objectSizeLessThan) {

    public FilterAnd {
        tags = List.copyOf(tags);
    }

    public int predicateCount() {
        return (prefix != null ? 1 : 0) + tags.size()
                + (objectSizeGreaterThan != null ? 1 : 0) + (objectSizeLessThan != null ? 1 : 0);
    }
}
