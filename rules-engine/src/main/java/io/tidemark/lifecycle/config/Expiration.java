package io.tidemark.lifecycle.config;

import java.time.Instant;

/** {@code <Expiration>}: exactly one of its fields is set (S3's schema). */
public record Expiration(Integer days, Instant date, Boolean expiredObjectDeleteMarker) {

    public static Expiration afterDays(int days) {
        return new Expiration(days, null, null);
    }

    public static Expiration onDate(Instant date) {
        return new Expiration(null, date, null);
    }

    public static Expiration expiredObjectDeleteMarker(boolean enabled) {
        return new Expiration(null, null, enabled);
    }
}
