package io.tidemark.cli.audit;

/** Why an audit could not read {@code lifecycle-events} at all: Kafka does not answer, or the topic is not there. */
public final class AuditScanException extends RuntimeException {

    public AuditScanException(String message) {
        super(message);
    }

    public AuditScanException(String message, Throwable cause) {
        super(message, cause);
    }
}
