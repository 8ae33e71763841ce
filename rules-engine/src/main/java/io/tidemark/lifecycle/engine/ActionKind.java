package io.tidemark.lifecycle.engine;

import java.util.Locale;

/**
 * The action kinds of SeaweedFS's {@code LifecycleDelete} RPC, with their wire numbers, and where Tidemark
 * schedules each one: on a durable replay timer driven by the meta-log, by the periodic walker, or both.
 */
public enum ActionKind {
    UNSPECIFIED(0, false, false),
    /** Expiration/Days of a current version: a timer from the object's creation. */
    EXPIRATION_DAYS(1, true, false),
    /** Expiration/Date: a calendar date, so a walk finds what it applies to. */
    EXPIRATION_DATE(2, false, true),
    /** NoncurrentVersionExpiration/NoncurrentDays (with NewerNoncurrentVersions as keep count): a timer from demotion. */
    NONCURRENT_DAYS(3, true, false),
    /** NewerNoncurrentVersions without a day count: depends only on rank, so the walker counts. */
    NEWER_NONCURRENT(4, false, true),
    /** AbortIncompleteMultipartUpload: a timer from initiation. */
    ABORT_MPU(5, true, false),
    /**
     * Removal of an expired object delete marker. Its trigger is an event (a version delete or a marker
     * creation) and the walker; whether the marker is the sole survivor is re-checked by the server.
     */
    EXPIRED_DELETE_MARKER(6, true, true);

    private final int number;
    private final boolean replayed;
    private final boolean walked;

    ActionKind(int number, boolean replayed, boolean walked) {
        this.number = number;
        this.replayed = replayed;
        this.walked = walked;
    }

    /** The protobuf enum number. */
    public int number() {
        return number;
    }

    /** Scheduled from meta-log events by the replay pipeline. */
    public boolean replayed() {
        return replayed;
    }

    /** Found by the walker's listing. */
    public boolean walked() {
        return walked;
    }

    /**
     * The kinds whose due time is a day count after an event, and so whose rules take part in the replay
     * content hash. SeaweedFS calls these replay kinds.
     */
    public boolean timerDriven() {
        return this == EXPIRATION_DAYS || this == NONCURRENT_DAYS || this == ABORT_MPU;
    }

    /** The lower-case label SeaweedFS uses in metrics, such as {@code expiration_days}. */
    public String metricLabel() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ActionKind forNumber(int number) {
        for (ActionKind kind : values()) {
            if (kind.number == number) {
                return kind;
            }
        }
        throw new IllegalArgumentException("unknown ActionKind number " + number);
    }
}
