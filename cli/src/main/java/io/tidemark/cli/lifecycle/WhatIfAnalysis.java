package io.tidemark.cli.lifecycle;

import io.tidemark.bucketprocessor.WalkVisitor;
import io.tidemark.bucketprocessor.WholeWalk;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.CompiledRule;
import io.tidemark.lifecycle.engine.MultipartUpload;
import io.tidemark.lifecycle.engine.ObjectVersion;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.pb.MetaLogProto.RearmRole;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Counts, as the walker hands it each object version and upload, what a configuration would do to it within the
 * horizon — every rule kind, whichever part of the pipeline (a timer or a walk) would carry it out — and, when a
 * configuration other than the bucket's own is given, how that differs from what the current one does. It reads;
 * nothing is sent or written.
 */
final class WhatIfAnalysis implements WalkVisitor {

    private final RuleSet analysed;
    private final BucketVersioning versioning;
    private final Horizon horizon;
    private final List<RuleTally> rules = new ArrayList<>();
    /** Present when a configuration is given: the bucket's current one to compare with. */
    private final Optional<Comparison> comparison;

    private record Comparison(Optional<RuleSet> current, ChangeTally change) {
    }

    /**
     * @param current the bucket's configuration to compare {@code analysed} with, or empty when {@code analysed} is
     *                the bucket's own
     * @param samples how many entries to name per rule and per side of the change
     */
    WhatIfAnalysis(RuleSet analysed, BucketVersioning versioning, Horizon horizon, int samples,
                   Optional<CurrentConfiguration> current) {
        this.analysed = analysed;
        this.versioning = versioning;
        this.horizon = horizon;
        for (CompiledRule rule : analysed.rules()) {
            rules.add(new RuleTally(rule, horizon.days(), samples));
        }
        this.comparison = current.map(c -> new Comparison(c.valid(), new ChangeTally(c.state(), samples)));
    }

    @Override
    public void version(String directory, Entry entry, ObjectVersion version, RearmRole role,
                        Optional<ObjectVersion> asOneEvent) {
        // The version as the walk knows it (rank, successor time), not as one event shows it: every kind is counted
        // here, whether a timer or a walk would carry it out.
        Subject subject = new Subject(version.key(), version.versionId(), null, version.size());
        Optional<FirstAction> given = FirstAction.forVersion(analysed, versioning, version, entry, horizon);
        given.ifPresent(action -> tally(subject, action));
        comparison.ifPresent(c -> c.change().add(subject,
                c.current().flatMap(rules -> FirstAction.forVersion(rules, versioning, version, entry, horizon)),
                given));
    }

    @Override
    public void upload(String directory, Entry entry, String destinationKey) {
        MultipartUpload upload = new MultipartUpload(destinationKey, S3Entries.modTime(entry));
        Subject subject = new Subject(destinationKey, null, entry.getName(), 0);
        Optional<FirstAction> given = FirstAction.forUpload(analysed, upload, horizon);
        given.ifPresent(action -> tally(subject, action));
        comparison.ifPresent(c -> c.change().add(subject,
                c.current().flatMap(rules -> FirstAction.forUpload(rules, upload, horizon)), given));
    }

    private void tally(Subject subject, FirstAction action) {
        rules.get(action.match().ruleIndex()).add(subject, action);
    }

    WhatIfReport report(String bucket, String rulesSource, WholeWalk.Progress walk, Duration took) {
        double seconds = took.toNanos() / 1e9;
        return new WhatIfReport(bucket, versioning.name(), rulesSource, horizon.now(), horizon.day().toSeconds(),
                horizon.days(), horizon.end(), rules.stream().map(r -> r.report(horizon)).toList(),
                comparison.map(c -> c.change().report()).orElse(null),
                new WhatIfReport.Walk(walk.handled(), walk.listed(), walk.listCalls(), walk.lookupCalls(),
                        walk.anomalies(), walk.nullMarkers(), seconds, seconds > 0 ? walk.handled() / seconds : 0));
    }
}
