package io.tidemark.cli.lifecycle;

import io.tidemark.lifecycle.engine.CompiledRule;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Adds up, for one rule, what it does now and on each day of the horizon, while the walk goes on. */
final class RuleTally {

    private static final int CATEGORIES = ActionCategory.values().length;
    /** The held entries' column, beside the four categories. */
    private static final int HELD = CATEGORIES;

    private final CompiledRule rule;
    private final int samplesWanted;
    /** [slot][category or HELD]: slot 0 is now, 1..days the days. */
    private final long[][] counts;
    private final long[][] bytes;
    private final List<WhatIfReport.Sample> samples = new ArrayList<>();
    private Instant earliestDue;

    RuleTally(CompiledRule rule, int days, int samplesWanted) {
        this.rule = rule;
        this.samplesWanted = samplesWanted;
        this.counts = new long[days + 1][CATEGORIES + 1];
        this.bytes = new long[days + 1][CATEGORIES + 1];
    }

    void add(Subject subject, FirstAction action) {
        int column = action.held() ? HELD : action.category().ordinal();
        counts[action.slot()][column]++;
        bytes[action.slot()][column] += subject.bytes();
        Instant due = action.match().dueAt();
        if (earliestDue == null || due.isBefore(earliestDue)) {
            earliestDue = due;
        }
        if (samples.size() < samplesWanted) {
            samples.add(subject.sample(action, rule.id()));
        }
    }

    WhatIfReport.RuleReport report(Horizon horizon) {
        List<WhatIfReport.Day> days = new ArrayList<>();
        long[] totalCounts = new long[CATEGORIES + 1];
        long[] totalBytes = new long[CATEGORIES + 1];
        for (int slot = 0; slot < counts.length; slot++) {
            for (int c = 0; c <= CATEGORIES; c++) {
                totalCounts[c] += counts[slot][c];
                totalBytes[c] += bytes[slot][c];
            }
            if (slot > 0) {
                days.add(new WhatIfReport.Day(slot, horizon.dayEnd(slot - 1), horizon.dayEnd(slot),
                        actions(counts[slot], bytes[slot])));
            }
        }
        return new WhatIfReport.RuleReport(rule.index(), rule.id(), rule.enabled(), actions(counts[0], bytes[0]),
                List.copyOf(days), actions(totalCounts, totalBytes), earliestDue, List.copyOf(samples));
    }

    private static WhatIfReport.Actions actions(long[] count, long[] size) {
        return new WhatIfReport.Actions(
                tally(count, size, ActionCategory.CURRENT_EXPIRED.ordinal()),
                tally(count, size, ActionCategory.NONCURRENT_EXPIRED.ordinal()),
                tally(count, size, ActionCategory.DELETE_MARKER_REMOVED.ordinal()),
                tally(count, size, ActionCategory.UPLOAD_ABORTED.ordinal()),
                tally(count, size, HELD));
    }

    private static Tally tally(long[] count, long[] size, int column) {
        return new Tally(count[column], size[column]);
    }
}
