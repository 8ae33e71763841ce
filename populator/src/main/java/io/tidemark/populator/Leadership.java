package io.tidemark.populator;

import java.time.Duration;
import java.util.Optional;

/**
 * This instance's place in the populator leader election. Two views of it are kept apart on purpose: what this
 * process last heard ({@link #holds}, cheap, checked at every batch) and what ZooKeeper says now ({@link #confirmed},
 * a read): a process that was paused or cut off can go on believing it leads long after a successor took over, and
 * only the second view tells.
 */
interface Leadership extends AutoCloseable {

    /**
     * Waits up to {@code timeout} for this instance to lead.
     *
     * @return the election node this instance leads with (its registry writes are fenced by it), or empty
     */
    Optional<String> awaitLeading(Duration timeout) throws InterruptedException;

    /** Whether this instance leads, as far as it has heard. */
    boolean holds();

    /** Reads ZooKeeper now: true if this instance's node is the first in the election. */
    boolean confirmed() throws Exception;

    /** Leaves the election and joins it again, behind every instance already in it. */
    void rejoin();

    @Override
    void close();
}
