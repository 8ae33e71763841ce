package io.tidemark.lifecycle.config;

import java.util.Objects;

/** A tag predicate. A tag written with only a key has the empty value, and so matches only an empty value. */
public record FilterTag(String key, String value) {

    public FilterTag {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(value, "value");
    }
}
