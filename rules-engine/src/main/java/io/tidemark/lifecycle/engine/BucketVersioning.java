package io.tidemark.lifecycle.engine;

import java.util.Locale;

/** A bucket's versioning state. {@link #OFF} means versioning was never enabled. */
public enum BucketVersioning {
    OFF,
    ENABLED,
    SUSPENDED;

    /** Reads S3's spelling ({@code Off}, {@code Enabled}, {@code Suspended}), in any case. */
    public static BucketVersioning parse(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "off", "" -> OFF;
            case "enabled" -> ENABLED;
            case "suspended" -> SUSPENDED;
            default -> throw new IllegalArgumentException("bucket versioning must be Off, Enabled or Suspended, not \""
                    + name + "\"");
        };
    }

    public boolean versioned() {
        return this != OFF;
    }
}
