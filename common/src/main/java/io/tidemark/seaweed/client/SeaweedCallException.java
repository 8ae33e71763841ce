package io.tidemark.seaweed.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Set;

/** A failed SeaweedFS call, classified so callers can choose between retrying and giving up. */
public final class SeaweedCallException extends RuntimeException {

    private static final Set<Status.Code> TRANSIENT = Set.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED,
            Status.Code.RESOURCE_EXHAUSTED, Status.Code.ABORTED);

    private final FailureKind kind;
    private final Status.Code code;

    public SeaweedCallException(String operation, StatusRuntimeException cause) {
        super(operation + " failed: " + cause.getStatus().getCode()
                + (cause.getStatus().getDescription() == null ? "" : ": " + cause.getStatus().getDescription()), cause);
        this.code = cause.getStatus().getCode();
        this.kind = classify(cause.getStatus());
    }

    public static FailureKind classify(Status status) {
        return TRANSIENT.contains(status.getCode()) ? FailureKind.TRANSIENT : FailureKind.PERMANENT;
    }

    public FailureKind kind() {
        return kind;
    }

    public Status.Code code() {
        return code;
    }
}
