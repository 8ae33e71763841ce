package io.tidemark.lifecycle.engine;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A bucket's compiled lifecycle rules: immutable, safe to share between threads, and cheap to evaluate
 * however many rules it holds (see {@link PrefixIndex}).
 *
 * <p>When several rules apply, the one S3 would honour wins: an action that removes data for good beats
 * the creation of a delete marker; then the earliest due instant; then the rule listed first.
 */
public final class RuleSet {

    private static final Comparator<RuleMatch> DUE_ORDER = Comparator
            .comparing((RuleMatch m) -> !m.action().permanent())
            .thenComparing(RuleMatch::dueAt)
            .thenComparingInt(RuleMatch::ruleIndex);

    private static final Comparator<RuleMatch> UPCOMING_ORDER = Comparator
            .comparing(RuleMatch::dueAt)
            .thenComparing((RuleMatch m) -> !m.action().permanent())
            .thenComparingInt(RuleMatch::ruleIndex);

    private final List<CompiledRule> rules;
    private final LifecycleCalendar calendar;
    private final PrefixIndex versionRules;
    private final PrefixIndex uploadRules;

    RuleSet(List<CompiledRule> rules, LifecycleCalendar calendar) {
        this.rules = List.copyOf(rules);
        this.calendar = calendar;
        List<CompiledRule> enabled = this.rules.stream().filter(CompiledRule::enabled).toList();
        this.versionRules = PrefixIndex.of(enabled.stream().filter(CompiledRule::expiresVersions).toList());
        // Multipart uploads carry no tags or size yet, and S3 refuses tag or size filters on abort rules.
        this.uploadRules = PrefixIndex.of(enabled.stream().filter(CompiledRule::abortsUploads).toList());
    }

    /** Every rule, in document order, disabled ones included. */
    public List<CompiledRule> rules() {
        return rules;
    }

    public LifecycleCalendar calendar() {
        return calendar;
    }

    public Optional<CompiledRule> rule(String id) {
        return rules.stream().filter(r -> r.id().equals(id)).findFirst();
    }

    public Evaluation evaluate(ObjectVersion version, BucketVersioning versioning, Instant now) {
        PrefixIndex.Candidates candidates = new PrefixIndex.Candidates();
        versionRules.collect(version.key(), version.tags(), candidates);
        return select(candidates, rule -> rule.matchVersion(version, versioning, calendar), now);
    }

    public Evaluation evaluate(MultipartUpload upload, Instant now) {
        PrefixIndex.Candidates candidates = new PrefixIndex.Candidates();
        uploadRules.collect(upload.key(), Map.of(), candidates);
        return select(candidates, rule -> rule.matchUpload(upload, calendar), now);
    }

    /** Picks, among the candidates' matches, the one to act on now and the earliest one still to come. */
    private Evaluation select(PrefixIndex.Candidates candidates, Function<CompiledRule, RuleMatch> matcher,
                              Instant now) {
        RuleMatch due = null;
        RuleMatch upcoming = null;
        for (int i = 0; i < candidates.size(); i++) {
            RuleMatch match = matcher.apply(rules.get(candidates.get(i)));
            if (match == null) {
                continue;
            }
            if (match.dueBy(now)) {
                due = better(due, match, DUE_ORDER);
            } else {
                upcoming = better(upcoming, match, UPCOMING_ORDER);
            }
        }
        if (due == null && upcoming == null) {
            return Evaluation.NOTHING;
        }
        return new Evaluation(Optional.ofNullable(due), Optional.ofNullable(upcoming));
    }

    /**
     * The timer-driven actions of the enabled rules, for the replay cursor hashes: a change here means timers
     * armed earlier were armed under other rules.
     */
    public List<ReplayAction> replayActions(String bucket) {
        List<ReplayAction> actions = new ArrayList<>();
        for (CompiledRule rule : rules) {
            if (!rule.enabled()) {
                continue;
            }
            for (ActionKind kind : rule.kinds()) {
                switch (kind) {
                    case EXPIRATION_DAYS -> actions.add(new ReplayAction(bucket, rule.hash(), kind,
                            calendar.span(rule.expirationDays())));
                    case NONCURRENT_DAYS -> actions.add(new ReplayAction(bucket, rule.hash(), kind,
                            calendar.span(rule.noncurrentDays())));
                    case ABORT_MPU -> actions.add(new ReplayAction(bucket, rule.hash(), kind,
                            calendar.span(rule.abortDays())));
                    default -> {
                        // Date, rank and marker actions are not timers.
                    }
                }
            }
        }
        return actions;
    }

    /**
     * Whether some enabled rule needs periodic walks: a kind no replay timer covers (a date, a rank, an expired
     * delete marker), or noncurrent expiration, whose timer needs a demotion stamp or a rank a single event may not
     * carry.
     */
    public boolean needsWalks() {
        return rules.stream().filter(CompiledRule::enabled).flatMap(r -> r.kinds().stream())
                .anyMatch(kind -> kind.walked() || kind == ActionKind.NONCURRENT_DAYS);
    }

    /** SeaweedFS's ReplayContentHash of this bucket's rules. */
    public byte[] replayContentHash(String bucket) {
        return ReplayHashes.replayContentHash(replayActions(bucket));
    }

    private static RuleMatch better(RuleMatch current, RuleMatch candidate, Comparator<RuleMatch> order) {
        return current == null || order.compare(candidate, current) < 0 ? candidate : current;
    }

}
