package io.tidemark.seaweed.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.Set;

/** A failed SeaweedFS call, classified so callers can choose between retrying and giving up. */
public final class SeaweedCallException extends RuntimeException {

    private static final Set<Status.Code> TRANSIENT = Set.of(Status.Code.UNAVAILABLE, Status.Code.DEADLINE_EXCEEDED,
            Status.Code.RESOURCE_EXHAUSTED, Status.Code.ABORTED);
    private static final Set<Status.Code> FAULT = Set.of(Status.Code.UNKNOWN, Status.Code.INTERNAL,
            Status.Code.CANCELLED, Status.Code.DATA_LOSS);

    private final FailureKind kind;
    private final Status.Code code;

    public SeaweedCallException(String operation, StatusRuntimeException cause) {
        super(operation + " failed: " + cause.getStatus().getCode()
                + (cause.getStatus().getDescription() == null ? "" : ": " + cause.getStatus().getDescription()), cause);
        this.code = cause.getStatus().getCode();
        this.kind = classify(cause.getStatus());
    }

    public static FailureKind classify(Status status) {
        if (TRANSIENT.contains(status.getCode())) {
            return FailureKind.TRANSIENT;
        }
        return FAULT.contains(status.getCode()) ? FailureKind.FAULT : FailureKind.PERMANENT;
    }

    public FailureKind kind() {
        return kind;
    }

    public Status.Code code() {
        return code;
    }
}
