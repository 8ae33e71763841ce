package io.tidemark.seaweed.client;

/** Whether a failed call is worth repeating as it is, and how often. */
public enum FailureKind {
    /** The network, the server's load or a deadline: the same call may succeed later; repeat it until answered. */
    TRANSIENT,
    /**
     * The server failed on this call (UNKNOWN, INTERNAL, CANCELLED, DATA_LOSS): how a SeaweedFS filer reports an
     * ordinary error, and how an HTTP/2 stream reset during a restart surfaces. It may pass; repeat it a bounded
     * number of times, then give up visibly.
     */
    FAULT,
    /** The request itself is wrong or refused: repeating it changes nothing. */
    PERMANENT
}
