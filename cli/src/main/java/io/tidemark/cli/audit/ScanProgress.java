package io.tidemark.cli.audit;

import java.util.Locale;

/**
 * How far a long scan has got, reported every few seconds.
 *
 * @param span the offsets the scan's bounds cover: the most it can read
 */
public record ScanProgress(long recordsRead, long span, long elapsedMillis) {

    public long perSecond() {
        return elapsedMillis == 0 ? 0 : recordsRead * 1000 / elapsedMillis;
    }

    /** The line printed on stderr. */
    public String line() {
        return String.format(Locale.ROOT, "audit: %,d of at most %,d records read (%,d records/s)", recordsRead, span,
                perSecond());
    }
}
