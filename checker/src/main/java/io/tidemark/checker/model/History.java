package io.tidemark.checker.model;

import java.util.List;

/**
 * What a run does, generated from a seed: the buckets it creates and the steps it takes, in order.
 *
 * @param seed the seed it was generated from (a shrunk history keeps it)
 */
public record History(long seed, List<BucketSpec> buckets, List<Step> steps) {

    /** A bucket as it is created, before any step. */
    public record BucketSpec(String name, boolean objectLock, boolean versioned) {
    }

    public History {
        buckets = List.copyOf(buckets);
        steps = List.copyOf(steps);
    }

    /** The same history with only {@code kept} as its steps. */
    public History withSteps(List<Step> kept) {
        return new History(seed, buckets, kept);
    }

    public long operations() {
        return steps.stream().filter(s -> !s.fault() && s.kind() != Step.Kind.WAIT).count();
    }

    public long faults() {
        return steps.stream().filter(Step::fault).count();
    }
}
