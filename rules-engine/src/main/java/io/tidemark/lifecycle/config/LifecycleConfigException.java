package io.tidemark.lifecycle.config;

import java.util.Objects;

/** A lifecycle configuration S3 would reject, with the error code S3 answers and a message naming the rule. */
public final class LifecycleConfigException extends Exception {

    private final S3ErrorCode code;

    public LifecycleConfigException(S3ErrorCode code, String message) {
        super(message);
        this.code = Objects.requireNonNull(code, "code");
    }

    public S3ErrorCode code() {
        return code;
    }

    /** The one-line form the CLI prints: {@code <ErrorCode>: <message>}. */
    public String describe() {
        return code + ": " + getMessage();
    }
}
