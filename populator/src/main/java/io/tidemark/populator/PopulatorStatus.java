package io.tidemark.populator;

import java.util.Locale;

/** Where a populator instance is in its life; the status line and readiness read it. */
public enum PopulatorStatus {
    STARTING,
    /** Waiting to lead: another instance tails the filer. */
    STANDBY,
    /** Tailing the filer and publishing. */
    LEADING,
    /** Its term failed; it backs off and tries again. Not ready meanwhile. */
    RETRYING,
    STOPPED;

    /** The word the status line shows, stable for log scrapers. */
    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
