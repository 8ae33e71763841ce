package io.tidemark.cli.lifecycle;

import io.tidemark.bucketprocessor.WholeWalk;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * The line a long what-if prints on stderr every few seconds: entries walked, the rate since the start, where the
 * walk stands, and an ETA only when a total is known. The filer cannot say how many entries a bucket holds
 * without listing them, so without {@code --expected-entries} the line gives the rate and the position and says
 * that there is no ETA; with it, the ETA is what is left of that count at the average rate so far.
 */
final class ProgressLine implements Consumer<WholeWalk.Progress> {

    private final PrintWriter err;
    private final String bucket;
    private final OptionalLong expected;
    private final long intervalNanos;
    private final LongSupplier nanoTime;
    private final long start;
    private long lastPrinted;

    ProgressLine(PrintWriter err, String bucket, OptionalLong expected, long intervalMillis, LongSupplier nanoTime) {
        this.err = err;
        this.bucket = bucket;
        this.expected = expected;
        this.intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMillis);
        this.nanoTime = nanoTime;
        this.start = nanoTime.getAsLong();
        this.lastPrinted = start;
    }

    @Override
    public void accept(WholeWalk.Progress progress) {
        long now = nanoTime.getAsLong();
        if (progress.position().isEmpty() || now - lastPrinted < intervalNanos) {
            return;
        }
        lastPrinted = now;
        err.println(line(progress.handled(), progress.position(), now - start));
        err.flush();
    }

    String line(long entries, String position, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        double rate = seconds > 0 ? entries / seconds : 0;
        return String.format(Locale.ROOT, "what-if %s: %d entries in %.0f s, %.0f entries/s, at %s; %s", bucket,
                entries, seconds, rate, position, eta(entries, rate));
    }

    private String eta(long entries, double rate) {
        if (expected.isEmpty()) {
            return "no ETA (the filer does not tell a bucket's size; --expected-entries N gives one)";
        }
        long total = expected.getAsLong();
        if (entries >= total) {
            return "past the " + total + " entries expected, ETA unknown";
        }
        if (rate <= 0) {
            return "ETA unknown yet";
        }
        return String.format(Locale.ROOT, "ETA %s (%.0f%% of %d expected)", duration((total - entries) / rate),
                100.0 * entries / total, total);
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s >= 3600) {
            return String.format(Locale.ROOT, "%dh%02dm", s / 3600, s % 3600 / 60);
        }
        if (s >= 60) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return s + "s";
    }
}
