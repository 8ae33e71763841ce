package io.tidemark.objectprocessor;

import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.lifecycle.engine.CompiledRule;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.messages.ObjectTask;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a NoncurrentDays task is due counted from the version's last demotion, as a fresh listing of its key shows
 * it ({@link VersionCheck.Look#demoted()}), and not only from the demotion the task was timed from. The two differ
 * when the version was current again and demoted again since (architecture.md, invariant 8: a task is judged against
 * the object as it is now, its successor included); the rules count from the later one.
 */
final class LastDemotion {

    private LastDemotion() {
    }

    /**
     * When the task falls due counted from the version's last demotion, and why, if that is later than {@code at}
     * (the filer's time); empty when it is due now.
     */
    record NotDue(Instant due, String reason) {
    }

    static Optional<NotDue> notDue(ObjectTask task, String key, CompiledRule rule, LifecycleCalendar calendar,
                                   Instant demoted, Instant at) {
        Optional<Instant> due = rule.dueAt(ActionKind.NONCURRENT_DAYS, null, demoted, calendar);
        if (due.isEmpty() || !at.isBefore(due.get())) {
            return Optional.empty();
        }
        Instant timedFrom = task.details() == null ? null : task.details().noncurrentSince();
        String version = "version " + task.target().versionId() + " of " + key;
        String when = timedFrom == null || !demoted.isAfter(timedFrom)
                ? version + " became noncurrent at " + demoted
                : version + " was demoted again at " + demoted + " (the task was timed from " + timedFrom + ")";
        return Optional.of(new NotDue(due.get(), when + "; due at " + due.get() + " under rule \"" + rule.id()
                + "\", by the filer's clock " + at + " now"));
    }
}
