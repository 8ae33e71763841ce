package io.tidemark.objectprocessor;

import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;

/**
 * What the processor does with each answer (architecture.md, Cursors and invariant 6).
 *
 * <ul>
 *   <li>DONE and the NOOPs that settle the task finish it.</li>
 *   <li>Answers that mean "not now" rather than "never" finish the task <em>and</em> ask for a walk of the key, which
 *   evaluates it again as it is now and re-arms its timer or sends a new task: SKIPPED_OBJECT_LOCK (the lock may
 *   end), NOOP STALE_IDENTITY (the entry changed after the decision; a lock or metadata change arms no timer of its
 *   own), and NOOP NOT_FOUND (upstream answers it for any failure to read the entry, not only for a missing one). A
 *   task that such a walk produced and that is answered NOT_FOUND or SKIPPED_OBJECT_LOCK again — the walk found it
 *   there and free a moment before — is retried, then parked: never a loop (NOT_FOUND only while the version is still
 *   there, which {@link ActionRunner} reads).</li>
 *   <li>RETRY_LATER, and a call the server failed on (UNKNOWN, INTERNAL, CANCELLED: a restart's reset streams look like
 *   this), are called again later, up to their limits, then parked.</li>
 *   <li>BLOCKED, an outcome this version does not know, and a request the gateway refuses outright park at once.</li>
 * </ul>
 * Transport failures (UNAVAILABLE, deadlines) never reach here: the caller repeats them until answered.
 */
final class OutcomePolicy {

    /** HOLD: the cluster is paused, or the controls are unknown; the task waits, unrecorded and uncounted. */
    enum Verdict { COMPLETE, RETRY_LATER, PARK, HOLD }

    /**
     * @param outcome     the outcome's name as recorded in metrics, audit and dead letters
     * @param walkTheKey  after recording the outcome, ask for a walk of the task's key
     * @param retryIn     for a RETRY_LATER, how long to wait before the next attempt; null for the usual backoff
     * @param owesWalk    the task was only recorded (a paused bucket, a dry run): before it is finished, its bucket
     *                    is noted as owed a recovery walk for when it acts again
     */
    record Decision(Verdict verdict, String outcome, String reason, boolean walkTheKey, Duration retryIn,
                    boolean owesWalk) {

        Decision(Verdict verdict, String outcome, String reason) {
            this(verdict, outcome, reason, false, null, false);
        }

        Decision(Verdict verdict, String outcome, String reason, boolean walkTheKey) {
            this(verdict, outcome, reason, walkTheKey, null, false);
        }

        /** The same decision, its reason followed by a note (which rule allowed it, say) for the audit trail. */
        Decision noting(String note) {
            String noted = reason == null || reason.isEmpty() ? note : reason + " (" + note + ")";
            return new Decision(verdict, outcome, noted, walkTheKey, retryIn, owesWalk);
        }
    }

    static final String RPC_ERROR = "RPC_ERROR";
    static final String NOOP_RULE_CHANGED = "NOOP_RULE_CHANGED";
    static final String UPLOAD_COMPLETED_LEFTOVER = "UPLOAD_COMPLETED_LEFTOVER";
    static final String NOOP_VERSION_CHANGED = "NOOP_VERSION_CHANGED";
    static final String NOT_DUE_YET = "NOT_DUE_YET";
    static final String PAUSED = "PAUSED";
    static final String DRY_RUN = "DRY_RUN";
    /** The longest an early task waits before its rules are checked again (they may have changed meanwhile). */
    static final Duration EARLY_WAIT_MAX = Duration.ofMinutes(1);
    /** Past the due instant by this much, so that the next check finds it due rather than a hair early. */
    private static final Duration EARLY_WAIT_MARGIN = Duration.ofMillis(20);
    /** The scan id prefix of a walk the processor asks for, and so of the tasks that walk produces. */
    static final String RECHECK_SCAN = "recheck-";
    private static final Set<String> NOT_NOW_NOOPS = Set.of("NOT_FOUND", "STALE_IDENTITY");

    private final int retryLaterMaxAttempts;
    private final int faultMaxAttempts;

    OutcomePolicy(int retryLaterMaxAttempts, int faultMaxAttempts) {
        this.retryLaterMaxAttempts = retryLaterMaxAttempts;
        this.faultMaxAttempts = faultMaxAttempts;
    }

    /** @param attempts calls made so far for this task, this one included */
    Decision decide(ObjectTask task, LifecycleDeleteResponse response, int attempts) {
        String outcome = response.getOutcome().name();
        String reason = response.getReason();
        return switch (response.getOutcome()) {
            case DONE -> new Decision(Verdict.COMPLETE, outcome, reason);
            // An upload answered NOT_FOUND is gone: its path names it, and a walk of its key does not list uploads.
            case NOOP_RESOLVED -> NOT_NOW_NOOPS.contains(reason) && !"ABORT_MPU".equals(task.kind())
                    ? notNow(task, outcome, reason, attempts) : new Decision(Verdict.COMPLETE, outcome, reason);
            case SKIPPED_OBJECT_LOCK -> notNow(task, outcome, reason, attempts);
            case RETRY_LATER -> retryOrPark(outcome, reason, attempts, retryLaterMaxAttempts);
            case BLOCKED -> new Decision(Verdict.PARK, outcome, reason);
            default -> new Decision(Verdict.PARK, outcome, "unknown outcome " + outcome + ": " + reason);
        };
    }

    /**
     * A call that failed for good: retried a bounded number of times when the server failed on it (it may pass),
     * parked at once when the request itself was refused (INVALID_ARGUMENT, PERMISSION_DENIED, UNIMPLEMENTED...).
     */
    Decision refused(SeaweedCallException error, int attempts) {
        if (error.kind() == FailureKind.PERMANENT) {
            return new Decision(Verdict.PARK, RPC_ERROR, error.getMessage());
        }
        return retryOrPark(RPC_ERROR, error.getMessage(), attempts, faultMaxAttempts);
    }

    /** The rules as they are now no longer ask for the task: it deletes nothing, and nothing more is owed. */
    static Decision ruleChanged(String why) {
        return new Decision(Verdict.COMPLETE, NOOP_RULE_CHANGED, why);
    }

    /**
     * The task came early (its decider's clock is ahead of the filer's): it is held until it is due by the filer's
     * clock, checked again then, and counts no attempt towards parking.
     */
    static Decision notDueYet(Instant due, Instant filerNow, String ruleId) {
        return heldUntil(due, filerNow, "not due under rule \"" + ruleId + "\" until " + due + " by the filer's clock, "
                + filerNow + " now");
    }

    private static Decision heldUntil(Instant due, Instant filerNow, String why) {
        Duration early = Duration.between(filerNow, due).plus(EARLY_WAIT_MARGIN);
        return new Decision(Verdict.RETRY_LATER, NOT_DUE_YET, why, false,
                early.compareTo(EARLY_WAIT_MAX) > 0 ? EARLY_WAIT_MAX : early, false);
    }

    /**
     * A noncurrent version demoted again since its task was timed: due later, counted from its last demotion. A wait
     * no longer than one re-check is held in place like an early task (the successor's creation and the task's
     * demotion time come from different stamps, which a clock skew sets apart by moments). A longer one is not: held
     * for days, the task would hold its partition's cursor as long. It finishes as NOOP_VERSION_CHANGED, and a walk
     * of its key re-arms the version's timer from the key as it is now. A task that came from such a walk is never
     * finished so (a walk after it could loop, and nothing else would time the version: a timers-only bucket has no
     * steady walk): it is held like an early task, re-checked at least every minute until it is due.
     */
    static Decision dueLater(Instant due, Instant filerNow, String why, boolean fromRecheck) {
        if (fromRecheck || Duration.between(filerNow, due).compareTo(EARLY_WAIT_MAX) <= 0) {
            return heldUntil(due, filerNow, why);
        }
        return new Decision(Verdict.COMPLETE, NOOP_VERSION_CHANGED, why, true);
    }

    /**
     * The whole cluster is paused (or the controls are unknown, or the gateway does not serve LifecycleDelete): the
     * task waits where it is for the resume.
     */
    static Decision held() {
        return new Decision(Verdict.HOLD, PAUSED, "the cluster is paused, the controls are not known, or the gateway "
                + "does not serve LifecycleDelete");
    }

    /**
     * The bucket alone is paused: the task is recorded as PAUSED and finished, and the bucket owed a recovery walk,
     * which carries it out (and whatever else came due) once the bucket is resumed. Holding it instead would hold its
     * partition's cursor, which every other bucket's tasks share.
     */
    static Decision deferred(String bucket) {
        return new Decision(Verdict.COMPLETE, PAUSED, "bucket " + bucket + " is paused: left to the walk its resume "
                + "sends", false, null, true);
    }

    /**
     * The bucket is in dry run: the task passed every check the processor makes and is recorded, not carried out. The
     * gateway's own checks (the entry's identity, object lock) are not made: a DRY_RUN says what would have been asked.
     */
    static Decision dryRun(ObjectTask task) {
        return new Decision(Verdict.COMPLETE, DRY_RUN, "dry run: " + task.action() + " of " + task.target().objectPath()
                + (task.target().versionId() == null || task.target().versionId().isEmpty() ? ""
                : " version " + task.target().versionId()) + " not sent to the gateway", false, null, true);
    }

    /**
     * The version is the current one again, or its rank no longer passes the rule's keep count: nothing is owed (a
     * version that falls noncurrent again is timed again; ranks are counted again by the next walk).
     */
    static Decision versionChanged(String why) {
        return new Decision(Verdict.COMPLETE, NOOP_VERSION_CHANGED, why);
    }

    /** Whether the gateway answered that it found nothing to act on (or could not read it). */
    static boolean notFound(LifecycleDeleteResponse response) {
        return response.getOutcome() == LifecycleDeleteOutcome.NOOP_RESOLVED
                && response.getReason().equals("NOT_FOUND");
    }

    /** The version a task names is gone, as a fresh read shows: nothing is owed, and no walk is needed. */
    static Decision gone(String outcome, String why) {
        return new Decision(Verdict.COMPLETE, outcome, "NOT_FOUND: " + why);
    }

    static Decision uploadCompleted(String why) {
        return new Decision(Verdict.PARK, UPLOAD_COMPLETED_LEFTOVER, "not aborted: " + why);
    }

    /** Whether a task came from a walk the processor asked for after a "not now" answer. */
    static boolean fromRecheck(ObjectTask task) {
        return task.details() != null && task.details().scanId() != null
                && task.details().scanId().startsWith(RECHECK_SCAN);
    }

    private Decision notNow(ObjectTask task, String outcome, String reason, int attempts) {
        // A changed entry is a real write each time, so a walk after it can never loop on its own.
        if (!fromRecheck(task) || reason.equals("STALE_IDENTITY")) {
            return new Decision(Verdict.COMPLETE, outcome, reason, true);
        }
        // A walk of the key found it due and free a moment ago: the answer is a race or a read failure. Try again a
        // few times, then leave it where an operator sees it.
        return retryOrPark(outcome, reason, attempts, retryLaterMaxAttempts);
    }

    private static Decision retryOrPark(String outcome, String reason, int attempts, int maxAttempts) {
        return attempts < maxAttempts ? new Decision(Verdict.RETRY_LATER, outcome, reason)
                : new Decision(Verdict.PARK, outcome, "still " + outcome + " after " + attempts + " attempts: " + reason);
    }
}
