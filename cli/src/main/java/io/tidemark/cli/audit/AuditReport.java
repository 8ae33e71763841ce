package io.tidemark.cli.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.tidemark.messages.LifecycleEvent;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.stream.Collectors;

/** How {@code tidemark audit} prints what it found: a table for people, or one JSON document for tools. */
final class AuditReport {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    /** Always milliseconds, so that the column keeps its width (an instant prints only the digits it needs). */
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String ROW = "%-24s  %9s  %-20s  %-22s  %3s  %-16s  %-32s  %-12s  %s%n";

    private AuditReport() {
    }

    static void human(AuditResult result, PrintWriter out) {
        if (!result.events().isEmpty()) {
            out.printf(Locale.ROOT, ROW, "TIME", "LATE", "OUTCOME", "KIND", "TRY", "RULE", "KEY", "VERSION", "REASON");
        }
        for (AuditedEvent e : result.events()) {
            LifecycleEvent event = e.event();
            out.printf(Locale.ROOT, ROW, TIME.format(event.at() == null ? e.timestamp() : event.at()),
                    event.lateness().map(AuditReport::span).orElse("-"), event.outcome(),
                    orDash(event.kind()), event.attempt(), orDash(event.ruleId()), orDash(event.objectPath()),
                    orDash(event.versionId()), event.reason() == null ? "" : event.reason());
        }
        out.println(totals(result));
        out.println(scanned(result));
    }

    static void json(AuditResult result, PrintWriter out) throws JsonProcessingException {
        out.println(JSON.writeValueAsString(result));
    }

    /** {@code 1,204 events (DONE=1,180, PARKED=4, ...); showing the latest 100}. */
    private static String totals(AuditResult result) {
        String byOutcome = result.totals().entrySet().stream()
                .map(e -> String.format(Locale.ROOT, "%s=%,d", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
        String line = String.format(Locale.ROOT, "%,d event%s", result.matched(), result.matched() == 1 ? "" : "s")
                + (byOutcome.isEmpty() ? "" : " (" + byOutcome + ")");
        if (result.events().size() < result.matched()) {
            line += String.format(Locale.ROOT, "; showing the latest %,d (--limit)", result.events().size());
        }
        return line;
    }

    /** What was read to answer: how much the bounds saved shows in the partitions and records read. */
    private static String scanned(AuditResult result) {
        AuditQuery q = result.query();
        return String.format(Locale.ROOT, "read %,d record%s of %d partition%s %s from %s to %s in %.1f s%s",
                result.recordsRead(), result.recordsRead() == 1 ? "" : "s", result.partitions().size(),
                result.partitions().size() == 1 ? "" : "s", result.partitions(), TIME.format(q.since()),
                q.until() == null ? "the end" : TIME.format(q.until()), result.elapsedMillis() / 1000.0,
                result.undecodable() == 0 ? "" : String.format(Locale.ROOT, "; %,d undecodable record%s skipped",
                        result.undecodable(), result.undecodable() == 1 ? "" : "s"));
    }

    /** A lateness as people read it: {@code 0s}, {@code 42s}, {@code 4m12s}, {@code 3h05m}, {@code 2d04h}. */
    static String span(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return s + "s";
        }
        if (s < 3_600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        if (s < 86_400) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3_600, s % 3_600 / 60);
        }
        return String.format(Locale.ROOT, "%dd%02dh", s / 86_400, s % 86_400 / 3_600);
    }

    private static String orDash(String value) {
        return value == null || value.isEmpty() ? "-" : value;
    }
}
