package io.tidemark.devtools.bench;

import java.util.Collection;

/**
 * Order statistics of a sample, the way every benchmark here reports them: the nearest-rank percentile (the
 * smallest value with at least that share of the sample at or below it) and the maximum; {@code NaN} for an empty
 * sample.
 */
public final class Latencies {

    private final double[] sorted;

    private Latencies(double[] sorted) {
        this.sorted = sorted;
    }

    public static Latencies of(Collection<? extends Number> values) {
        return new Latencies(values.stream().mapToDouble(Number::doubleValue).sorted().toArray());
    }

    public static Latencies of(double... values) {
        double[] copy = values.clone();
        java.util.Arrays.sort(copy);
        return new Latencies(copy);
    }

    public int count() {
        return sorted.length;
    }

    /** @param q a share of the sample, in (0, 1] */
    public double percentile(double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
    }

    public double max() {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }
}
