package io.tidemark.cli.lifecycle;

import io.tidemark.bucketprocessor.EntryLister;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Keeps a read-only walk's filer reads under a number of entries per second, so a what-if on a big bucket does not
 * take the filer from the services and the S3 traffic. The limit holds on average: a call is made once the entries
 * of the calls before it have been paid for, so at most one listing (up to a page) goes out at a time ahead of it.
 * A lookup counts as one entry.
 */
final class ListingPace implements EntryLister {

    /** How the pace waits; a test's stands still and records. */
    interface Sleeper {
        void sleepNanos(long nanos) throws InterruptedException;
    }

    private final EntryLister filer;
    private final long nanosPerEntry;
    private final LongSupplier nanoTime;
    private final Sleeper sleeper;
    /** The monotonic instant from which the next call may go out. */
    private long nextFree;

    ListingPace(EntryLister filer, long entriesPerSecond, LongSupplier nanoTime, Sleeper sleeper) {
        if (entriesPerSecond <= 0) {
            throw new IllegalArgumentException("a pace needs a positive rate, not " + entriesPerSecond);
        }
        this.filer = filer;
        this.nanosPerEntry = Math.max(1, TimeUnit.SECONDS.toNanos(1) / entriesPerSecond);
        this.nanoTime = nanoTime;
        this.sleeper = sleeper;
        this.nextFree = nanoTime.getAsLong();
    }

    /** The filer's reads at {@code entriesPerSecond}, or as they come when it is 0. */
    static EntryLister of(EntryLister filer, long entriesPerSecond) {
        if (entriesPerSecond == 0) {
            return filer;
        }
        return new ListingPace(filer, entriesPerSecond, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
    }

    @Override
    public List<Entry> list(String directory, String prefix, String startAfter, int limit) {
        long start = waitTurn();
        List<Entry> got = filer.list(directory, prefix, startAfter, limit);
        pay(start, got.size());
        return got;
    }

    @Override
    public Optional<Entry> lookup(String directory, String name) {
        long start = waitTurn();
        Optional<Entry> got = filer.lookup(directory, name);
        pay(start, 1);
        return got;
    }

    /** Waits until the next call may go out; returns when it does. */
    private long waitTurn() {
        long now = nanoTime.getAsLong();
        long wait = nextFree - now;
        if (wait <= 0) {
            return now;
        }
        try {
            sleeper.sleepNanos(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while pacing the listing", e);
        }
        return nanoTime.getAsLong();
    }

    private void pay(long callStart, int entries) {
        // Paid from the call's start, so the call's own duration counts towards its entries' time; time not used
        // while the caller worked is not saved up: a pause is no licence for a burst afterwards.
        nextFree = Math.max(nextFree, callStart) + entries * nanosPerEntry;
    }
}
