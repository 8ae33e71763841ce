package io.tidemark.lifecycle.hash;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Go's {@code time.RFC3339Nano} rendering of a UTC instant: fraction present only when non-zero, trailing zeros cut. */
public final class GoTime {

    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
            .withZone(ZoneOffset.UTC);

    private GoTime() {
    }

    public static String rfc3339Nano(Instant instant) {
        if (instant == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(SECONDS.format(instant));
        int nanos = instant.getNano();
        if (nanos != 0) {
            String fraction = String.format("%09d", nanos);
            int end = fraction.length();
            while (fraction.charAt(end - 1) == '0') {
                end--;
            }
            out.append('.').append(fraction, 0, end);
        }
        return out.append('Z').toString();
    }
}
