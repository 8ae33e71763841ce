package io.tidemark.devtools.campaign;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The object processor's own lateness histogram ({@code tidemark_object_processor_lateness_seconds}) for one path's
 * deletes, read from its registry: what an operator's dashboard shows, set beside what the filer's meta-log says. A
 * reading is cumulative; the difference of two is what happened between them.
 *
 * @param counts deletes at or under each bucket bound, in seconds
 */
record LatenessHistogram(long total, TreeMap<Double, Long> counts) {

    /** The deletes ({@code DONE}) of {@code path} so far, every bucket label summed. */
    static LatenessHistogram read(MeterRegistry registry, String path) {
        TreeMap<Double, Long> counts = new TreeMap<>();
        long total = 0;
        for (Timer timer : registry.find("tidemark.object.processor.lateness").tags("path", path, "outcome", "DONE")
                .timers()) {
            total += timer.count();
            for (CountAtBucket b : timer.takeSnapshot().histogramCounts()) {
                counts.merge(b.bucket(TimeUnit.SECONDS), (long) b.count(), Long::sum);
            }
        }
        return new LatenessHistogram(total, counts);
    }

    LatenessHistogram since(LatenessHistogram before) {
        TreeMap<Double, Long> counts = new TreeMap<>();
        for (Map.Entry<Double, Long> e : this.counts.entrySet()) {
            counts.put(e.getKey(), e.getValue() - before.counts.getOrDefault(e.getKey(), 0L));
        }
        return new LatenessHistogram(total - before.total, counts);
    }

    /** The smallest bucket bound at or under which a share {@code q} of the deletes lies (NaN: beyond the last). */
    double bound(double q) {
        if (total <= 0) {
            return Double.NaN;
        }
        long wanted = (long) Math.ceil(q * total);
        for (Map.Entry<Double, Long> e : counts.entrySet()) {
            if (e.getValue() >= wanted) {
                return e.getKey();
            }
        }
        return Double.NaN;
    }

    private static String seconds(double bound) {
        return bound == Math.rint(bound) ? String.format(Locale.ROOT, "%.0f", bound) : String.valueOf(bound);
    }

    /** One line: how many, and the bucket bounds of p50 and p99. */
    String describe() {
        return String.format(Locale.ROOT, "the processor's histogram: %d deletes, p50 ≤ %s s, p99 ≤ %s s", total,
                seconds(bound(0.50)), seconds(bound(0.99)));
    }
}
