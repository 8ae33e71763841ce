package io.tidemark.cli.lifecycle;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Instant;
import java.util.List;

/**
 * What a lifecycle configuration would do to a bucket, as {@code tidemark lifecycle what-if} prints it; its JSON form
 * is the machine-readable document ({@code --json}), so components are only ever added, never renamed.
 *
 * @param rulesSource  {@code current} (the bucket's own configuration) or the file given with {@code --rules}
 * @param now          the instant the walk started, on the filer's clock: "now" is what is due at or before it
 * @param daySeconds   the length of a lifecycle day (the {@code lifecycle.day.seconds} setting)
 * @param horizonEnd   the end of the last day looked at
 * @param rules        every rule of the configuration, in document order, disabled ones included
 * @param change       what the configuration adds and removes against the bucket's current one; {@code null} without
 *                     {@code --rules}
 */
@JsonPropertyOrder({"bucket", "versioning", "rulesSource", "now", "daySeconds", "days", "horizonEnd", "rules",
    "change", "walk"})
public record WhatIfReport(String bucket, String versioning, String rulesSource, Instant now, long daySeconds, int days,
                    Instant horizonEnd, List<RuleReport> rules, @JsonInclude(JsonInclude.Include.NON_NULL) Change change,
                    Walk walk) {

    /**
     * What one rule does in one stretch of time.
     *
     * @param held entries the rule makes due there but object lock keeps (legal hold, retention), of any category:
     *             not deleted then, and not counted in the four categories
     */
    @JsonPropertyOrder({"currentExpired", "noncurrentExpired", "deleteMarkersRemoved", "uploadsAborted", "held"})
    public record Actions(Tally currentExpired, Tally noncurrentExpired, Tally deleteMarkersRemoved, Tally uploadsAborted,
                   Tally held) {

        /** Everything the actions remove (or hide under a delete marker), the held entries left out. */
        Tally acted() {
            return currentExpired.plus(noncurrentExpired).plus(deleteMarkersRemoved).plus(uploadsAborted);
        }
    }

    /** Day {@code day} of the horizon: what falls due after {@code from}, up to and including {@code until}. */
    @JsonPropertyOrder({"day", "from", "until", "actions"})
    public record Day(int day, Instant from, Instant until, Actions actions) {
    }

    /**
     * One entry acted on, to show what a rule matches.
     *
     * @param versionId {@code null} in an unversioned bucket and for uploads
     * @param uploadId  the upload's ID for an upload, else {@code null}
     * @param action    the rule engine's action name ({@code delete}, {@code create_delete_marker}, …)
     */
    @JsonPropertyOrder({"key", "versionId", "uploadId", "ruleId", "action", "dueAt", "held", "bytes"})
    public record Sample(String key, @JsonInclude(JsonInclude.Include.NON_NULL) String versionId,
                  @JsonInclude(JsonInclude.Include.NON_NULL) String uploadId, String ruleId, String action,
                  Instant dueAt, boolean held, long bytes) {
    }

    /**
     * @param index        the rule's place in the document, from 0
     * @param now          what is due at or before now
     * @param days         one per day of the horizon, empty ones included
     * @param total        now and every day together
     * @param earliestDue  the earliest due instant among the entries the rule acts on within the horizon, held ones
     *                     included; {@code null} when it acts on none
     * @param samples      the first entries it acts on, in walk order
     */
    @JsonPropertyOrder({"index", "id", "enabled", "now", "days", "total", "earliestDue", "samples"})
    public record RuleReport(int index, String id, boolean enabled, Actions now, List<Day> days, Actions total,
                      Instant earliestDue, List<Sample> samples) {
    }

    /**
     * The entries the given configuration acts on within the horizon and the current one does not, or the reverse.
     *
     * @param held those of them object lock would keep at the due instant (included in {@code entries})
     */
    @JsonPropertyOrder({"entries", "held", "samples"})
    public record ChangeSide(Tally entries, long held, List<Sample> samples) {
    }

    /**
     * @param current        the bucket's current configuration: {@code valid}, {@code none}, or {@code invalid:
     *                       <S3 error code>} (an invalid configuration is ignored by the pipeline, so it acts on nothing)
     * @param currentActsOn  entries the current configuration acts on within the horizon, held ones included
     * @param givenActsOn    the same for the given configuration
     * @param adds           acted on by the given configuration only
     * @param removes        acted on by the current configuration only
     * @param sooner         acted on by both, by the given configuration sooner (its samples show the given due time)
     * @param later          acted on by both, by the given configuration later
     */
    @JsonPropertyOrder({"current", "currentActsOn", "givenActsOn", "adds", "removes", "sooner", "later"})
    public record Change(String current, Tally currentActsOn, Tally givenActsOn, ChangeSide adds, ChangeSide removes,
                         ChangeSide sooner, ChangeSide later) {
    }

    /**
     * The walk itself.
     *
     * @param entries           entries evaluated or stepped over, each once
     * @param listed            entries the filer returned (a few are listed twice where a page ends)
     * @param layoutAnomalies   entries that do not fit the S3 layout, stepped over as the walker does
     * @param nullDeleteMarkers null delete markers, which no lifecycle request can remove
     */
    @JsonPropertyOrder({"entries", "listed", "listCalls", "lookupCalls", "layoutAnomalies", "nullDeleteMarkers",
        "seconds", "entriesPerSecond"})
    public record Walk(long entries, long listed, long listCalls, long lookupCalls, long layoutAnomalies,
                long nullDeleteMarkers, double seconds, double entriesPerSecond) {
    }

    /** Whether any rule would remove something now that no lock holds: what {@code --fail-if-deletes} tests. */
    boolean deletesNow() {
        return rules.stream().anyMatch(r -> r.now().acted().count() > 0);
    }

    /**
     * Whether the given configuration acts on entries the current one leaves alone within the horizon, or on entries
     * both act on but sooner: what {@code --fail-if-change-adds} tests.
     */
    boolean changeAdds() {
        return change != null && (change.adds().entries().count() > 0 || change.sooner().entries().count() > 0);
    }
}
