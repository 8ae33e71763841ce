package io.tidemark.cli;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * A point in time as operators write it on a command line: an ISO-8601 instant ({@code 2026-11-01T00:00:00Z}) or an
 * age counted back from now ({@code 7d}, {@code 12h}, {@code 30m}, {@code 90s}). One reading for every command that
 * takes one, so that {@code dlq purge --before 7d} and {@code audit --since 7d} mean the same moment.
 */
public final class InstantArgument {

    private InstantArgument() {
    }

    public static Instant parse(String text, Clock clock) {
        String t = text.trim();
        if (t.matches(AGE)) {
            return clock.instant().minus(age(t));
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is neither an instant (2026-11-01T00:00:00Z) nor an age "
                    + "(7d, 12h, 30m)", e);
        }
    }

    private static final String AGE = "\\d+[dhms]";

    /** A span as operators write it: {@code 7d}, {@code 12h}, {@code 30m}, {@code 90s}. */
    public static Duration age(String text) {
        String t = text.trim();
        if (!t.matches(AGE)) {
            throw new IllegalArgumentException("'" + text + "' is not a span of time (7d, 12h, 30m, 90s)");
        }
        long n = Long.parseLong(t.substring(0, t.length() - 1));
        return switch (t.charAt(t.length() - 1)) {
            case 'd' -> Duration.ofDays(n);
            case 'h' -> Duration.ofHours(n);
            case 'm' -> Duration.ofMinutes(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
