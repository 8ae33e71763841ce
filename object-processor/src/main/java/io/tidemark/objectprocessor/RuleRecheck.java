package io.tidemark.objectprocessor;

import io.tidemark.lifecycle.engine.CompiledRule;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.ObjectTask;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.seaweed.EpochNanos;
import java.time.Instant;
import java.util.Optional;

/**
 * The last check before a delete (architecture.md, invariant 5): is the task still what the bucket's rules, as they are
 * now, ask for? The rule it names must still be there under the same ID and hash, enabled, with an action of the task's
 * kind, and that action must be due now, recomputed from the entry the decision was made on. Anything else — the
 * configuration gone or invalid, the rule removed, disabled, lengthened or otherwise edited — means the task deletes
 * nothing: the rules that replaced it get their own timers from the walk the populator asks for on every change.
 *
 * <p>A task under the very rule it names that is not due yet is early, not stale: the host that decided it (a timer, a
 * walk) has a clock ahead of the filer's. It is held until it is due, never dropped.
 *
 * <p>Only rules are checked here. The entry's state (its identity, lock, whether it is still latest or the sole
 * survivor) is the gateway's to check when it acts.
 */
final class RuleRecheck {

    private RuleRecheck() {
    }

    /**
     * What the rules as they are now say of a task.
     *
     * @param stale        why the rules no longer ask for the task, or null
     * @param notDueBefore when the unchanged rule makes the task due, if that is later than now; or null
     */
    record Result(String stale, Instant notDueBefore) {

        static final Result ALLOWED = new Result(null, null);

        boolean allowed() {
            return stale == null && notDueBefore == null;
        }
    }

    /** Whether the current rules ask for the task at {@code at}, the filer's time. */
    static Result check(ObjectTask task, ActionKind kind, CurrentRules.Now now, Instant at) {
        String bucket = task.target().bucket();
        if (!now.exists()) {
            return stale("bucket " + bucket + " no longer exists");
        }
        if (now.rules().isEmpty()) {
            return stale(now.invalid() == null ? "bucket " + bucket + " has no lifecycle configuration now"
                    : "bucket " + bucket + "'s lifecycle configuration is invalid now (" + now.invalid() + ")");
        }
        ObjectTask.Details details = task.details();
        if (details == null || details.ruleId() == null || details.ruleHash() == null) {
            return stale("the task names no rule, so none can be found to allow it");
        }
        RuleSet rules = now.rules().get();
        Optional<CompiledRule> named = rules.rule(details.ruleId());
        if (named.isEmpty()) {
            return stale("rule \"" + details.ruleId() + "\" is no longer in the configuration");
        }
        CompiledRule rule = named.get();
        if (!rule.hash().toHex().equals(details.ruleHash())) {
            return stale("rule \"" + details.ruleId() + "\" was changed (hash " + details.ruleHash() + " is now "
                    + rule.hash().toHex() + ")");
        }
        if (!rule.enabled()) {
            return stale("rule \"" + details.ruleId() + "\" is disabled");
        }
        if (!rule.kinds().contains(kind)) {
            return stale("rule \"" + details.ruleId() + "\" has no " + kind + " action");
        }
        Optional<Instant> due = due(task, kind, rule, rules);
        if (due.isEmpty()) {
            return stale("rule \"" + details.ruleId() + "\" gives no due time for this task");
        }
        return at.isBefore(due.get()) ? new Result(null, due.get()) : Result.ALLOWED;
    }

    private static Result stale(String why) {
        return new Result(why, null);
    }

    private static Optional<Instant> due(ObjectTask task, ActionKind kind, CompiledRule rule, RuleSet rules) {
        ObjectTask.Details details = task.details();
        Instant modTime = details.modTime() != null ? details.modTime()
                : details.expectedIdentity() != null ? EpochNanos.toInstant(details.expectedIdentity().mtimeNs())
                : null;
        Optional<Instant> due = rule.dueAt(kind, modTime, details.noncurrentSince(), rules.calendar());
        // A task from before tasks carried the times needed: the rule is unchanged (same hash), so the due instant
        // the decider computed under it still holds.
        return due.isPresent() ? due : Optional.ofNullable(details.dueAt());
    }
}
