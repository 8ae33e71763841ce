package io.tidemark.lifecycle.engine;

import java.time.Instant;

/**
 * A rule that applies to an object version or upload: what it does, how the gateway is asked to do it, and
 * from when.
 *
 * @param ruleIndex the rule's position in the document, which breaks ties between rules due together
 */
public record RuleMatch(LifecycleAction action, ActionKind kind, String ruleId, int ruleIndex, RuleHash ruleHash,
                        Instant dueAt) {

    public boolean dueBy(Instant now) {
        return !now.isBefore(dueAt);
    }
}
