package io.tidemark.replay;

import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleMatch;
import io.tidemark.replay.TimerPlanner.BucketRules;
import io.tidemark.lifecycle.engine.ActionKind;
import java.time.Instant;
import java.util.Optional;

/**
 * What a due timer does, decided against the bucket's rules as they are at firing, not as they were when it was
 * armed: fire (the current rules make this entry due now for this kind), re-time
 * (a rule still applies, but later; or object lock protects the entry), or drop with a reason (no lifecycle any
 * more, rules that no longer match).
 */
final class FiringCheck {

    sealed interface Verdict permits Fire, Retime, Drop {
    }

    /** @param match the current rule the task is carried out under */
    record Fire(RuleMatch match) implements Verdict {
    }

    record Retime(ReplayTimer timer) implements Verdict {
    }

    record Drop(String reason) implements Verdict {
    }

    /**
     * How far a timer that waits for its entry to change is put off: one under a legal hold, or a delete marker's
     * candidate that has fired and is watched. Any change to the entry re-arms it sooner.
     */
    static final java.time.Duration UNTIL_ENTRY_CHANGES = java.time.Duration.ofDays(36_500);

    static Verdict check(ReplayTimer timer, Optional<BucketRules> rules, Instant now) {
        if (rules.isEmpty()) {
            return new Drop("no-lifecycle");
        }
        if (timer.protectedUntil() != null && now.isBefore(timer.protectedUntil())) {
            // A second, client-side guard: the gateway checks locks only where the bucket has object lock enabled.
            // The timer waits out a retention; under a legal hold it waits until the entry changes (lifting the
            // hold is an update of the entry, which re-arms the timer from the entry as it is then).
            Instant horizon = now.plus(UNTIL_ENTRY_CHANGES);
            Instant until = timer.protectedUntil().isAfter(horizon) ? horizon : timer.protectedUntil();
            return new Retime(timer.retimed(timer.ruleId(), timer.ruleHash(), until));
        }
        ActionKind kind = ActionKind.valueOf(timer.kind());
        var evaluation = timer.upload()
                ? rules.get().rules().evaluate(new MultipartUpload(timer.logicalKey(), timer.modTime()), now)
                : rules.get().rules().evaluate(version(timer), rules.get().versioning(), now);
        Optional<RuleMatch> due = evaluation.due().filter(m -> m.kind() == kind);
        if (due.isPresent()) {
            return new Fire(due.get());
        }
        if (evaluation.due().isEmpty()) {
            Optional<RuleMatch> later = evaluation.upcoming().filter(m -> m.kind() == kind);
            if (later.isPresent()) {
                RuleMatch m = later.get();
                return new Retime(timer.retimed(m.ruleId(), m.ruleHash().toHex(), m.dueAt()));
            }
        }
        return new Drop("rule-changed");
    }

    private static ObjectVersion version(ReplayTimer timer) {
        if (timer.noncurrent()) {
            return TimerPlanner.noncurrent(timer.logicalKey(), timer.size(), timer.tags(), timer.modTime(),
                    timer.versionId(), timer.noncurrentSince());
        }
        if (timer.marker()) {
            return TimerPlanner.marker(timer.logicalKey(), timer.modTime(), timer.versionId());
        }
        return TimerPlanner.current(timer.logicalKey(), timer.size(), timer.tags(), timer.modTime(), timer.versionId());
    }
}
