package io.tidemark.conductor;

/** What a walker pass did, and the exit status {@code tidemark conductor --once} reports it with. */
public enum PassOutcome {
    /** The pass ran: every walkable bucket without a walk under way got a steady task. */
    RAN(0),
    /** Another conductor held the walker lock: nothing was seeded. */
    SKIPPED_LOCK(3),
    /** A consumer group's backlog was above the limit: nothing was seeded. */
    SKIPPED_BACKLOG(4),
    /** The whole cluster is paused ({@code tidemark pause}): nothing was seeded. */
    SKIPPED_PAUSED(5),
    /** The pass failed (ZooKeeper or Kafka unreachable, a task not accepted). */
    FAILED(1);

    private final int exitCode;

    PassOutcome(int exitCode) {
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
