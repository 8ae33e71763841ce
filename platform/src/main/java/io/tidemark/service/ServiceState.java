package io.tidemark.service;

/** Where a service is in its life. Moves only forward: NEW → STARTING → RUNNING → STOPPING → STOPPED, or FAILED. */
public enum ServiceState {
    NEW,
    STARTING,
    RUNNING,
    STOPPING,
    STOPPED,
    FAILED;

    public boolean finished() {
        return this == STOPPED || this == FAILED;
    }
}
