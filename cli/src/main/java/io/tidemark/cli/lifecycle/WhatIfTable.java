package io.tidemark.cli.lifecycle;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The human form of a {@link WhatIfReport}: a heading, a table per rule (now, each day with something, total), the change. */
final class WhatIfTable {

    private static final String ROW = "%-20s %-8s %-20s %-20s %-20s %-20s %-20s%n";

    private WhatIfTable() {
    }

    static void print(WhatIfReport report, PrintWriter out) {
        out.printf(Locale.ROOT, "what-if: bucket %s (versioning %s), rules: %s%n", report.bucket(),
                report.versioning(), report.rulesSource());
        out.printf(Locale.ROOT, "now %s (the filer's clock); %d day(s) of %d s, up to %s%n", report.now(),
                report.days(), report.daySeconds(), report.horizonEnd());
        WhatIfReport.Walk walk = report.walk();
        out.printf(Locale.ROOT, "walked %d entries in %.1f s (%.0f entries/s); %d layout anomalies, %d null delete "
                + "markers%n", walk.entries(), walk.seconds(), walk.entriesPerSecond(), walk.layoutAnomalies(),
                walk.nullDeleteMarkers());
        out.println();
        printRow(out, "RULE", "WHEN", "CURRENT EXPIRED", "NONCURRENT EXPIRED", "MARKERS REMOVED",
                "UPLOADS ABORTED", "HELD (LOCKED)");
        for (WhatIfReport.RuleReport rule : report.rules()) {
            String name = rule.id() + (rule.enabled() ? "" : " (disabled)");
            row(out, name, "now", rule.now());
            for (WhatIfReport.Day day : rule.days()) {
                if (day.actions().acted().count() > 0 || day.actions().held().count() > 0) {
                    row(out, "", "day " + day.day(), day.actions());
                }
            }
            row(out, "", "total", rule.total());
            if (rule.earliestDue() != null) {
                out.printf(Locale.ROOT, "%-20s earliest due %s; e.g. %s%n", "", rule.earliestDue(),
                        samples(rule.samples()));
            }
        }
        if (report.change() != null) {
            WhatIfReport.Change change = report.change();
            out.println();
            out.printf(Locale.ROOT, "change against the bucket's current configuration (%s), within %d day(s):%n",
                    change.current(), report.days());
            out.printf(Locale.ROOT, "  the current configuration acts on %s, the given one on %s%n",
                    tally(change.currentActsOn()), tally(change.givenActsOn()));
            side(out, "adds", change.adds());
            side(out, "removes", change.removes());
            side(out, "sooner", change.sooner());
            side(out, "later", change.later());
        }
        out.flush();
    }

    private static void row(PrintWriter out, String rule, String when, WhatIfReport.Actions a) {
        printRow(out, rule, when, cell(a.currentExpired()), cell(a.noncurrentExpired()),
                cell(a.deleteMarkersRemoved()), cell(a.uploadsAborted()), cell(a.held()));
    }

    private static void printRow(PrintWriter out, Object... cells) {
        out.println(String.format(Locale.ROOT, ROW, cells).stripTrailing());
    }

    private static void side(PrintWriter out, String name, WhatIfReport.ChangeSide side) {
        out.printf(Locale.ROOT, "  %-8s %s%s%s%n", name, tally(side.entries()),
                side.held() > 0 ? " (" + side.held() + " held by object lock)" : "",
                side.samples().isEmpty() ? "" : "; e.g. " + samples(side.samples()));
    }

    private static String cell(Tally t) {
        return t.count() == 0 ? "-" : t.count() + " / " + bytes(t.bytes());
    }

    private static String tally(Tally t) {
        return t.count() + " entries (" + bytes(t.bytes()) + ")";
    }

    private static String samples(List<WhatIfReport.Sample> samples) {
        return samples.stream().map(WhatIfTable::sample).collect(Collectors.joining(", "));
    }

    private static String sample(WhatIfReport.Sample s) {
        String what = s.uploadId() != null ? s.key() + " (upload " + s.uploadId() + ")"
                : s.versionId() != null ? s.key() + " (version " + s.versionId() + ")" : s.key();
        return what + (s.held() ? " [held]" : "");
    }

    static String bytes(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
