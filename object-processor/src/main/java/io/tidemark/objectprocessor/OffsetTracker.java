package io.tidemark.objectprocessor;

import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The offsets of one partition that were read but are not finished. The offset to commit is the lowest unfinished
 * one, or one past the last read when all are finished: the committed cursor never passes a task that is not done,
 * however many later tasks of other objects finished before it.
 */
final class OffsetTracker {

    private final TreeSet<Long> unfinished = new TreeSet<>();
    private long next = -1;

    void read(long offset) {
        if (offset < next) {
            throw new IllegalStateException("offset " + offset + " read after " + (next - 1));
        }
        unfinished.add(offset);
        next = offset + 1;
    }

    void finished(long offset) {
        unfinished.remove(offset);
    }

    /** The offset a commit may name now, or empty when nothing was read yet. */
    OptionalLong committable() {
        if (next < 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(unfinished.isEmpty() ? next : unfinished.first());
    }

    int unfinishedCount() {
        return unfinished.size();
    }
}
