package io.tidemark.cli.lifecycle;

import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.Evaluation;
import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleMatch;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * The first thing one rule set does to one listed entry within a horizon: the rule that acts, what it does, when,
 * and whether object lock holds it then.
 *
 * <p>"First" because the report looks at the bucket as it is: an entry acted on changes (a current version expired
 * in a versioned bucket becomes noncurrent under a delete marker), and what the rules would do to it after that is
 * not foreseen here.
 *
 * @param slot {@link Horizon#NOW} or the day {@code 1..days} the action falls due in
 * @param held whether object lock (a legal hold, a retention not over at the due instant) keeps the action from
 *             happening then, as the walker and the gateway refuse it; the pipeline acts once the lock ends
 */
record FirstAction(RuleMatch match, ActionCategory category, int slot, boolean held) {

    static Optional<FirstAction> forVersion(RuleSet rules, BucketVersioning versioning, ObjectVersion version,
                                            Entry entry, Horizon horizon) {
        return first(at -> rules.evaluate(version, versioning, at), horizon)
                .map(match -> {
                    int slot = horizon.slot(match.dueAt());
                    Instant when = slot == Horizon.NOW ? horizon.now() : match.dueAt();
                    return new FirstAction(match, ActionCategory.of(match.kind()), slot,
                            S3Entries.locked(entry, when));
                });
    }

    /** Uploads carry no lock: the gateway aborts them whatever the bucket's object lock. */
    static Optional<FirstAction> forUpload(RuleSet rules, MultipartUpload upload, Horizon horizon) {
        return first(at -> rules.evaluate(upload, at), horizon)
                .map(match -> new FirstAction(match, ActionCategory.of(match.kind()), horizon.slot(match.dueAt()),
                        false));
    }

    /**
     * The rule acting now, else the one acting when the earliest upcoming match falls due — evaluated again at that
     * instant, so the winner among rules due together is the one S3 would honour (a permanent removal over a delete
     * marker, then the rule listed first), not merely the first found.
     */
    private static Optional<RuleMatch> first(Function<Instant, Evaluation> evaluateAt, Horizon horizon) {
        Evaluation now = evaluateAt.apply(horizon.now());
        if (now.due().isPresent()) {
            return now.due();
        }
        Optional<RuleMatch> upcoming = now.upcoming();
        if (upcoming.isEmpty() || upcoming.get().dueAt().isAfter(horizon.end())) {
            return Optional.empty();
        }
        return evaluateAt.apply(upcoming.get().dueAt()).due();
    }
}
