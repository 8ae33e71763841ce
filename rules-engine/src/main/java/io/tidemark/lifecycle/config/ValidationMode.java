package io.tidemark.lifecycle.config;

import java.util.Arrays;
import java.util.Locale;

/**
 * Whose rules a lifecycle configuration is checked against. S3's are the default; SeaweedFS's gateway also
 * accepts a NoncurrentVersionExpiration that holds only NewerNoncurrentVersions, and a bucket that has one
 * would otherwise lose all its rules here.
 */
public enum ValidationMode {
    AWS,
    SEAWEEDFS;

    /** The mode as settings and flags spell it. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static ValidationMode parse(String label) {
        return Arrays.stream(values()).filter(m -> m.label().equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown validation mode \"" + label
                        + "\"; expected aws or seaweedfs"));
    }
}
