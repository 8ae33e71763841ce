package io.tidemark.lifecycle.engine;

import java.util.Optional;

/**
 * The verdict for one object version or upload at one instant.
 *
 * @param due      the action to take now, if any rule has fallen due
 * @param upcoming the earliest match not due yet, with its due instant, so that a timer can be armed for it
 */
public record Evaluation(Optional<RuleMatch> due, Optional<RuleMatch> upcoming) {

    public static final Evaluation NOTHING = new Evaluation(Optional.empty(), Optional.empty());

    public LifecycleAction action() {
        return due.map(RuleMatch::action).orElse(LifecycleAction.NONE);
    }

    public Optional<String> ruleId() {
        return due.map(RuleMatch::ruleId);
    }
}
