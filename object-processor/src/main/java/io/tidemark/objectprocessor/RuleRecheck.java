package io.tidemark.objectprocessor;

import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.lifecycle.engine.CompiledRule;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.EpochNanos;
import java.time.Instant;
import java.util.Optional;

/**
 * The last check before a delete (architecture.md, invariant 5): is the task still what the bucket's rules, as they are
 * now, ask for? A rule is known by its content, not its ID (invariant 8): the task is judged under the rule it names
 * when that rule is still there with the same hash, enabled, with an action of the task's kind; otherwise under an
 * enabled rule of the same hash with such an action — the same filter and days under another ID, as tools that
 * regenerate rule IDs on every PUT write it, and as the populator sees it too (the same hashes: no walk is asked for,
 * so nothing else would ever time the object again). That rule's action must be due now, recomputed from the entry
 * the decision was made on. Anything else — the configuration gone or invalid, no rule with the task's content left
 * enabled (removed, disabled, lengthened or otherwise edited) — means the task deletes nothing: the rules that
 * replaced it get their own timers from the walk the populator asks for on every change of content.
 *
 * <p>A task under a rule of its content that is not due yet is early, not stale: the host that decided it (a timer, a
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
     * @param notDueBefore when the rule makes the task due, if that is later than now; or null
     * @param rule         the rule the task is judged under (the one it names, or one of the same content); null when
     *                     stale
     * @param note         when that rule is not the one the task names, which rule allows it instead; else null
     */
    record Result(String stale, Instant notDueBefore, CompiledRule rule, String note) {

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
        CompiledRule rule;
        String note = null;
        if (named.isPresent() && governs(named.get(), details.ruleHash(), kind)) {
            rule = named.get();
        } else {
            Optional<CompiledRule> sameContent = rules.rules().stream()
                    .filter(r -> governs(r, details.ruleHash(), kind)).findFirst();
            if (sameContent.isEmpty()) {
                return stale(whyNamedIsGone(details, kind, named) + ", and no enabled rule has its content (hash "
                        + details.ruleHash() + ") with " + article(kind) + " action");
            }
            rule = sameContent.get();
            note = "allowed under rule \"" + rule.id() + "\", of the same content as the rule \"" + details.ruleId()
                    + "\" the task names";
        }
        Optional<Instant> due = due(task, kind, rule, rules);
        if (due.isEmpty()) {
            return stale("rule \"" + rule.id() + "\" gives no due time for this task");
        }
        return new Result(null, at.isBefore(due.get()) ? due.get() : null, rule, note);
    }

    /**
     * Whether a rule governs the task's object as the rule it was decided under did: its content (filter and
     * actions, which the hash covers and the ID does not) is the same, it is enabled and it acts in the task's way.
     */
    private static boolean governs(CompiledRule rule, String hash, ActionKind kind) {
        return rule.enabled() && rule.hash().toHex().equals(hash) && rule.kinds().contains(kind);
    }

    /** Why the rule the task names does not allow it itself. */
    private static String whyNamedIsGone(ObjectTask.Details details, ActionKind kind, Optional<CompiledRule> named) {
        String rule = "rule \"" + details.ruleId() + "\"";
        if (named.isEmpty()) {
            return rule + " is no longer in the configuration";
        }
        if (!named.get().hash().toHex().equals(details.ruleHash())) {
            return rule + " was changed (hash " + details.ruleHash() + " is now " + named.get().hash().toHex() + ")";
        }
        if (!named.get().enabled()) {
            return rule + " is disabled";
        }
        return rule + " has no " + kind + " action";
    }

    private static String article(ActionKind kind) {
        return (kind.name().matches("^[AEIOU].*") ? "an " : "a ") + kind;
    }

    private static Result stale(String why) {
        return new Result(why, null, null, null);
    }

    private static Optional<Instant> due(ObjectTask task, ActionKind kind, CompiledRule rule, RuleSet rules) {
        ObjectTask.Details details = task.details();
        Instant modTime = details.modTime() != null ? details.modTime()
                : details.expectedIdentity() != null ? EpochNanos.toInstant(details.expectedIdentity().mtimeNs())
                : null;
        Optional<Instant> due = rule.dueAt(kind, modTime, details.noncurrentSince(), rules.calendar());
        // A task from before tasks carried the times needed: the rule's content is unchanged (same hash), so the due
        // instant the decider computed under it still holds.
        return due.isPresent() ? due : Optional.ofNullable(details.dueAt());
    }
}
