package io.tidemark.lifecycle.config;

import java.util.List;

/** A whole {@code <LifecycleConfiguration>}: the rules in document order. */
public record LifecycleConfiguration(List<LifecycleRule> rules) {

    /** S3's limit on the number of rules in one configuration. */
    public static final int MAX_RULES = 1000;

    public LifecycleConfiguration {
        rules = List.copyOf(rules);
    }
}
