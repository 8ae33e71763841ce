package io.tidemark.lifecycle.engine;

import java.util.Locale;

/** How a day-based rule turns "N days after an instant" into a due instant. */
public enum DuePolicy {
    /** S3's behaviour: the instant plus N days, rounded up to the next day boundary (00:00 UTC). */
    AWS,
    /** SeaweedFS's behaviour: the instant plus exactly N days, to the nanosecond. */
    EXACT;

    public static DuePolicy parse(String name) {
        return switch (name.toLowerCase(Locale.ROOT)) {
            case "aws" -> AWS;
            case "exact" -> EXACT;
            default -> throw new IllegalArgumentException("due policy must be aws or exact, not \"" + name + "\"");
        };
    }

    public String configName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
