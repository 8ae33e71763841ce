package io.tidemark.cli.lifecycle;

/** How many entries, and how many bytes they hold. */
public record Tally(long count, long bytes) {

    static final Tally NONE = new Tally(0, 0);

    Tally plus(Tally other) {
        return new Tally(count + other.count, bytes + other.bytes);
    }
}
