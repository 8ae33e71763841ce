package io.tidemark.seaweed.client;

/** Whether a failed call is worth repeating as it is. */
public enum FailureKind {
    /** The network, the server's load or a deadline: the same call may succeed later. */
    TRANSIENT,
    /** The request itself is wrong or refused: repeating it changes nothing. */
    PERMANENT
}
