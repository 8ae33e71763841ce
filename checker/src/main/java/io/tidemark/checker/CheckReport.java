package io.tidemark.checker;

import io.tidemark.checker.model.Finding;
import io.tidemark.checker.model.History;
import io.tidemark.checker.model.Step;
import io.tidemark.checker.model.TraceEvent;
import io.tidemark.messages.LifecycleEvent;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A finding as a person can act on it: what the oracle saw, and everything that touched the key — the checker's
 * changes, lifecycle's actions, the bucket's rule and versioning changes, the faults — in order, with times from the
 * start of the run, and the seed to run it again.
 */
final class CheckReport {

    private CheckReport() {
    }

    static void print(PrintWriter out, CheckRun.Result result) {
        List<TraceEvent> trace = result.trace();
        Instant start = trace.isEmpty() ? Instant.EPOCH : trace.get(0).at();
        for (Finding f : result.verdict().findings()) {
            out.printf(Locale.ROOT, "  %s %s/%s version %s%s at +%s%n", f.kind(), f.bucket(), f.key(), f.versionId(),
                    f.rule() == null ? "" : " rule " + f.rule(), since(start, f.at()));
            out.printf(Locale.ROOT, "    %s%n", f.detail());
            out.printf(Locale.ROOT, "    what touched it (seed %d):%n", result.history().seed());
            for (TraceEvent e : trace) {
                describe(e, f).ifPresent(line -> out.printf(Locale.ROOT, "      +%s %s%n", since(start, e.at()), line));
            }
            List<LifecycleEvent> audit = result.audit().stream()
                    .filter(a -> a.bucket().equals(f.bucket()) && a.objectPath().equals(f.key())).toList();
            out.printf(Locale.ROOT, "    its audit trail (lifecycle-events): %s%n", audit.isEmpty() ? "no record" : "");
            for (LifecycleEvent a : audit) {
                out.printf(Locale.ROOT, "      +%s %s %s version %s rule %s: %s %s (attempt %d)%n",
                        since(start, a.at()), a.kind(), a.action(),
                        a.versionId().isEmpty() ? "(current)" : a.versionId(), a.ruleId(),
                        a.outcome(), a.reason() == null ? "" : a.reason(), a.attempt());
            }
        }
        result.failedServices().forEach(s -> out.printf(Locale.ROOT, "  SERVICE FAILED %s%n", s));
        out.flush();
    }

    private static Optional<String> describe(TraceEvent e, Finding f) {
        if (e instanceof TraceEvent.KeyChanged k && k.bucket().equals(f.bucket()) && k.key().equals(f.key())) {
            return Optional.of(k.cause() + " → " + versions(k.versions()));
        }
        if (e instanceof TraceEvent.LifecycleActed a && a.bucket().equals(f.bucket()) && a.key().equals(f.key())) {
            return Optional.of("lifecycle " + a.kind() + " version " + (a.versionId().isEmpty() ? "(current)"
                    : a.versionId()) + " → " + versions(a.versions()));
        }
        if (e instanceof TraceEvent.LockChanged l && l.bucket().equals(f.bucket()) && l.key().equals(f.key())) {
            return Optional.of(l.cause() + " on " + l.versionId() + " → hold " + l.legalHold() + ", retain until "
                    + l.retainUntil());
        }
        if (e instanceof TraceEvent.UploadChanged u && u.bucket().equals(f.bucket()) && (u.key().equals(f.key())
                || f.key().equals(".uploads/" + u.uploadId()))) {
            return Optional.of(u.cause() + " → upload " + u.uploadId() + (u.present() ? " open" : " gone"));
        }
        if (e instanceof TraceEvent.BucketChanged b && b.bucket().equals(f.bucket())) {
            return Optional.of(b.cause());
        }
        if (e instanceof TraceEvent.Fault fault) {
            return Optional.of(fault.description());
        }
        return Optional.empty();
    }

    private static String versions(List<TraceEvent.VersionView> versions) {
        if (versions.isEmpty()) {
            return "no versions";
        }
        StringBuilder s = new StringBuilder();
        for (TraceEvent.VersionView v : versions) {
            s.append(s.isEmpty() ? "" : ", ").append(shortId(v.versionId())).append(v.latest() ? "*" : "")
                    .append(v.deleteMarker() ? " marker" : " " + v.size() + "B").append(v.tags().isEmpty() ? ""
                            : " " + v.tags());
        }
        return s.toString();
    }

    private static String shortId(String versionId) {
        return versionId.length() > 12 ? versionId.substring(0, 6) + "…" + versionId.substring(versionId.length() - 4)
                : versionId;
    }

    private static String since(Instant start, Instant at) {
        return String.format(Locale.ROOT, "%.3fs", Duration.between(start, at).toNanos() / 1e9);
    }

    /** The smallest history the shrinker found, as steps to read and replay. */
    static void printHistory(PrintWriter out, History history) {
        out.printf(Locale.ROOT, "  smallest history found (seed %d, %d steps):%n", history.seed(),
                history.steps().size());
        for (Step step : history.steps()) {
            out.printf(Locale.ROOT, "    %s%n", step);
        }
        out.flush();
    }
}
