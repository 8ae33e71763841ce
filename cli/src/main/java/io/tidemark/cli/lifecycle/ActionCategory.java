package io.tidemark.cli.lifecycle;

import io.tidemark.lifecycle.engine.ActionKind;

/** The four things a lifecycle rule does, as an operator counts them before enabling it. */
enum ActionCategory {
    /** Expiration of a current version: a delete in an unversioned bucket, a delete marker on top in a versioned one. */
    CURRENT_EXPIRED("current expired"),
    /** A noncurrent version (or noncurrent delete marker) removed for good, by age or by rank. */
    NONCURRENT_EXPIRED("noncurrent expired"),
    /** A delete marker removed because it is the only version left of its key. */
    DELETE_MARKER_REMOVED("markers removed"),
    /** An incomplete multipart upload aborted, its parts dropped. */
    UPLOAD_ABORTED("uploads aborted");

    private final String label;

    ActionCategory(String label) {
        this.label = label;
    }

    /** The column heading of the human report. */
    String label() {
        return label;
    }

    static ActionCategory of(ActionKind kind) {
        return switch (kind) {
            case EXPIRATION_DAYS, EXPIRATION_DATE -> CURRENT_EXPIRED;
            case NONCURRENT_DAYS, NEWER_NONCURRENT -> NONCURRENT_EXPIRED;
            case EXPIRED_DELETE_MARKER -> DELETE_MARKER_REMOVED;
            case ABORT_MPU -> UPLOAD_ABORTED;
            default -> throw new IllegalArgumentException("no lifecycle action of kind " + kind);
        };
    }
}
