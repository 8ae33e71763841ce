package io.tidemark.objectprocessor;

import io.grpc.Status;
import io.tidemark.lifecycle.engine.CompiledRule;
import io.tidemark.objectprocessor.OutcomePolicy.Decision;
import io.tidemark.lifecycle.engine.ActionKind;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import io.tidemark.seaweed.client.FilerClock;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Carries out one attempt at a task, without blocking the loop: the rules are checked as they are now (a task they no
 * longer ask for ends as NOOP_RULE_CHANGED, architecture.md, invariant 5; one they ask for later, judged on the filer's
 * clock, waits as NOT_DUE_YET, invariant 7), a noncurrent version's role, rank and last demotion against a fresh read
 * of its key (NOOP_VERSION_CHANGED, or NOT_DUE_YET for a short wait), an abort against the uploads a completion left
 * behind, and only then is the gateway called, once — unless the operators' controls say otherwise (the cluster
 * paused: HOLD; the bucket paused: PAUSED, deferred to a walk; a dry run: DRY_RUN, recorded and not sent), which are
 * looked at last, the moment before the call: a call it did not answer is made again only after the same checks again.
 * The result is the loop's {@link Decision}; the future fails only when the attempt ended without any answer (the
 * processor is stopping).
 */
final class ActionRunner {

    private final CurrentRules rules;
    private final UploadLeftovers uploads;
    private final VersionCheck versions;
    private final DeleteCaller caller;
    private final OutcomePolicy policy;
    private final Executor blockingChecks;
    private final FilerClock filerTime;
    private final BucketControls controls;
    private final LongSupplier nanoTime;
    /** When each attempt under way began (transport retries included), for the oldest-call gauge. */
    private final ConcurrentHashMap<PendingTask, Long> started = new ConcurrentHashMap<>();

    ActionRunner(CurrentRules rules, UploadLeftovers uploads, VersionCheck versions, DeleteCaller caller,
                 OutcomePolicy policy, Executor blockingChecks, FilerClock filerTime, BucketControls controls,
                 LongSupplier nanoTime) {
        this.rules = rules;
        this.uploads = uploads;
        this.versions = versions;
        this.caller = caller;
        this.policy = policy;
        this.blockingChecks = blockingChecks;
        this.filerTime = filerTime;
        this.controls = controls;
        this.nanoTime = nanoTime;
    }

    CompletableFuture<Decision> run(PendingTask task, int attempt) {
        started.put(task, nanoTime.getAsLong());
        // The whole attempt is what a transport failure repeats: permit, checks, call. The checks are then never
        // older than the call they allow, however long the gateway takes to answer again.
        CompletableFuture<Decision> decided = caller.untilAnswered(() -> caller.permit()
                .thenCompose(ignored -> checkedCall(task, attempt))).handle((decision, error) -> {
            if (error == null) {
                return decision;
            }
            Throwable cause = DeleteCaller.cause(error);
            if (cause instanceof SeaweedCallException refused) {
                // A gateway without LifecycleDelete refuses every call alike: the task waits for one that serves it
                // (the cluster check follows the gateway), parked it would be for nothing of its own.
                return refused.code() == Status.Code.UNIMPLEMENTED && controls.gatewayLacksLifecycleDelete()
                        ? OutcomePolicy.held() : policy.refused(refused, attempt);
            }
            throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
        });
        decided.whenComplete((d, e) -> started.remove(task));
        return decided;
    }

    /** The rules as they are now, the version's role and rank, an upload's leftovers; then one try at the gateway. */
    private CompletableFuture<Decision> checkedCall(PendingTask task, int attempt) {
        String bucket = task.task.target().bucket();
        // Reused rules may go ahead (within their maximum age), but may not drop a task on their own: the task may
        // have been decided under a change made after they were read.
        // Due-ness is judged on the filer's clock, which stamped the times it is computed from, taken before the rules
        // are read: a moment earlier than the check, never later.
        return caller.untilAnswered(filerTime::now).thenCompose(at -> caller.untilAnswered(() -> rules.of(bucket))
                .thenCompose(kept -> {
                    RuleRecheck.Result onKept = RuleRecheck.check(task.task, task.kind, kept, at);
                    return onKept.allowed() ? actOn(task, attempt, kept, onKept, at)
                            : caller.untilAnswered(() -> rules.fresh(bucket)).thenCompose(now -> actOn(task, attempt,
                            now, RuleRecheck.check(task.task, task.kind, now, at), at));
                }));
    }

    /**
     * The rules' answer at the filer's time {@code at}; then the version's role, rank and last demotion, and the
     * gateway's. What follows the rules' answer is judged under the rule that allowed the task — the one it names, or
     * one of the same content under another ID — never under a rule looked up by the task's ID alone.
     */
    private CompletableFuture<Decision> actOn(PendingTask task, int attempt, CurrentRules.Now now,
                                              RuleRecheck.Result recheck, Instant at) {
        if (recheck.stale() != null) {
            return CompletableFuture.completedFuture(OutcomePolicy.ruleChanged(recheck.stale()));
        }
        CompiledRule rule = recheck.rule();
        if (recheck.notDueBefore() != null) {
            return CompletableFuture.completedFuture(OutcomePolicy.notDueYet(recheck.notDueBefore(), at, rule.id()));
        }
        return versionCheck(task, rule).thenCompose(look -> {
            if (look.changed() != null) {
                return CompletableFuture.completedFuture(OutcomePolicy.versionChanged(look.changed()));
            }
            Optional<LastDemotion.NotDue> later = look.demoted() == null ? Optional.empty()
                    : LastDemotion.notDue(task.task, keyOf(task), rule, now.rules().orElseThrow().calendar(),
                    look.demoted(), at);
            if (later.isPresent()) {
                return CompletableFuture.completedFuture(OutcomePolicy.dueLater(later.get().due(), at,
                        later.get().reason(), OutcomePolicy.fromRecheck(task.task)));
            }
            return leftoverCheck(task).thenCompose(shared -> shared.isPresent()
                    ? CompletableFuture.completedFuture(OutcomePolicy.uploadCompleted(shared.get()))
                    : call(task, attempt).thenApply(decision -> recheck.note() == null ? decision
                    : decision.noting(recheck.note())));
        });
    }

    /** The call itself, unless the operators' controls say otherwise at this very moment. */
    private CompletableFuture<Decision> call(PendingTask task, int attempt) {
        String bucket = task.task.target().bucket();
        switch (controls.gate(bucket)) {
            case HOLD:
                return CompletableFuture.completedFuture(OutcomePolicy.held());
            case DEFER:
                return CompletableFuture.completedFuture(OutcomePolicy.deferred(bucket));
            case DRY_RUN:
                return CompletableFuture.completedFuture(OutcomePolicy.dryRun(task.task));
            default:
                return caller.callOnce(task.request).thenCompose(response -> answered(task, response, attempt));
        }
    }

    /**
     * The loop's decision on an answer. A walk's task answered NOT_FOUND is retried only while its version is still
     * there (the answer was a failure to read it): one that a fresh read shows gone — another task deleted it after
     * the walk listed it — owes nothing, and retrying it would hold the key's later tasks behind it for minutes.
     */
    private CompletableFuture<Decision> answered(PendingTask task, LifecycleDeleteResponse response, int attempt) {
        Decision decision = policy.decide(task.task, response, attempt);
        if (decision.verdict() == OutcomePolicy.Verdict.COMPLETE || !OutcomePolicy.fromRecheck(task.task)
                || !OutcomePolicy.notFound(response) || task.kind == ActionKind.ABORT_MPU) {
            return CompletableFuture.completedFuture(decision);
        }
        var target = task.task.target();
        return caller.untilAnswered(() -> CompletableFuture.supplyAsync(() -> versions.present(target.bucket(),
                keyOf(task), target.versionId()), blockingChecks)).thenApply(present -> present ? decision
                : OutcomePolicy.gone(response.getOutcome().name(), "the version is no longer there"));
    }

    /** The object's key: the lane is the record key, {@code bucket/key}. */
    private static String keyOf(PendingTask task) {
        var target = task.task.target();
        return task.lane.startsWith(target.bucket() + "/") ? task.lane.substring(target.bucket().length() + 1)
                : target.objectPath();
    }

    private CompletableFuture<VersionCheck.Look> versionCheck(PendingTask task, CompiledRule rule) {
        if (!VersionCheck.applies(task.kind)) {
            return CompletableFuture.completedFuture(new VersionCheck.Look(null, null));
        }
        var target = task.task.target();
        int keep = rule.newerNoncurrentVersions();
        boolean demotion = task.kind == ActionKind.NONCURRENT_DAYS;
        return caller.untilAnswered(() -> CompletableFuture.supplyAsync(() -> versions.look(target.bucket(),
                keyOf(task), target.versionId(), keep, demotion), blockingChecks));
    }

    private CompletableFuture<Optional<String>> leftoverCheck(PendingTask task) {
        if (task.kind != ActionKind.ABORT_MPU) {
            return CompletableFuture.completedFuture(Optional.empty());
        }
        return caller.untilAnswered(() -> CompletableFuture.supplyAsync(() -> uploads.sharedWithAnObject(
                task.task.target().bucket(), task.task.target().objectPath()), blockingChecks));
    }

    /** How long the oldest attempt under way has been waiting for an answer, in seconds; 0 when none is. */
    double oldestSeconds() {
        long now = nanoTime.getAsLong();
        return started.values().stream().mapToLong(Long::longValue).min().stream()
                .mapToDouble(began -> (now - began) / 1e9).findFirst().orElse(0);
    }
}
