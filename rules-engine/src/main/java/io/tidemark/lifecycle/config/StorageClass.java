package io.tidemark.lifecycle.config;

/** The storage classes a lifecycle transition may name. Tidemark parses transitions but never performs them. */
public enum StorageClass {
    GLACIER,
    STANDARD_IA,
    ONEZONE_IA,
    INTELLIGENT_TIERING,
    DEEP_ARCHIVE,
    GLACIER_IR;

    /** The infrequent-access classes, which S3 only allows 30 days or more after creation. */
    public boolean infrequentAccess() {
        return this == STANDARD_IA || this == ONEZONE_IA;
    }
}
