package io.tidemark.lifecycle.engine;

import java.time.Duration;
import java.util.Objects;

/**
 * One timer-driven action of one rule in one bucket, as the replay cursor hashes see it.
 *
 * @param ttl the action's delay: its day count times the length of a lifecycle day
 */
public record ReplayAction(String bucket, RuleHash ruleHash, ActionKind kind, Duration ttl) {

    public ReplayAction {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(ruleHash, "ruleHash");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(ttl, "ttl");
    }
}
