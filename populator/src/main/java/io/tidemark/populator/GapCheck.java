package io.tidemark.populator;

import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.FilerLogFiles;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.SeaweedCallException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A term's check for a meta-log gap: the filer's oldest meta-log file starts after where the populator is to resume
 * (an operator purged the logs, or the populator was away longer than the filer keeps them). What changed in between
 * was never published, and only a walk can find it. A check the filer cannot decide yet stays pending and is tried
 * again every {@code populator.gap.recheck.ms}.
 */
final class GapCheck {

    private static final Logger log = LoggerFactory.getLogger(GapCheck.class);

    private final FilerClient filer;
    private final Duration recheck;
    private final Clock clock;
    private final PopulatorMetrics metrics;
    /** Where a check that could not be decided yet looks from ({@code null}: none pending). */
    private PopulatorCheckpoint pending;
    private long nextCheckNanos;

    GapCheck(FilerClient filer, Duration recheck, Clock clock, PopulatorMetrics metrics) {
        this.filer = filer;
        this.recheck = recheck;
        this.clock = clock;
        this.metrics = metrics;
    }

    /**
     * Looks for a gap after {@code reference}. The checkpoint returned goes on from {@code current} (or from just
     * before the oldest file, if that lies further), records the gap and asks for a recovery walk of every lifecycle
     * bucket. Found once: the returned checkpoint, once committed, no longer lies before the oldest file. Returns
     * empty when there is no gap, and also while the filer cannot tell (it has no log file yet, or does not answer):
     * then the check stays pending against {@code reference}, so a log purged whole is judged once the filer logs
     * again.
     */
    Optional<PopulatorCheckpoint> lookAfter(PopulatorCheckpoint reference, PopulatorCheckpoint current) {
        pending = reference;
        nextCheckNanos = System.nanoTime() + recheck.toNanos();
        Optional<Instant> oldest;
        try {
            oldest = FilerLogFiles.oldest(filer);
        } catch (SeaweedCallException e) {
            if (e.kind() != FailureKind.PERMANENT) {
                log.debug("meta-log gap check to be tried again: {}", e.getMessage());
                return Optional.empty();
            }
            log.warn("the filer's meta-log files ({}) cannot be listed, so a gap after ts_ns {} cannot be ruled "
                    + "out: {}", FilerLogFiles.DIRECTORY, reference.tsNs(), e.getMessage());
            pending = null;
            return Optional.empty();
        }
        if (oldest.isEmpty()) {
            return Optional.empty();
        }
        pending = null;
        if (reference.tsNs() + 1 >= EpochNanos.of(oldest.get())) {
            return Optional.empty();
        }
        PopulatorCheckpoint gapped = current.gapFound(reference.tsNs(), EpochNanos.of(oldest.get()),
                EpochNanos.of(clock.instant()));
        metrics.gapFound(gapped.gap());
        log.error("meta-log gap: the populator was to resume after {} but the filer's oldest meta-log file starts at "
                        + "{}: whatever changed in between (its log files purged) can never be published, so a "
                        + "recovery walk of every lifecycle bucket is asked for ({} gap(s) since the cold start)",
                EpochNanos.toInstant(reference.tsNs()), oldest.get(), gapped.gap().count());
        return Optional.of(gapped);
    }

    /** Tries the pending check again if it is time, the gap's checkpoint going on from {@code current}. */
    Optional<PopulatorCheckpoint> retryIfDue(PopulatorCheckpoint current) {
        if (pending == null || System.nanoTime() - nextCheckNanos < 0) {
            return Optional.empty();
        }
        return lookAfter(pending, current);
    }

    /**
     * The stream resumed from the filer, which may have purged its logs past {@code checkpoint} meanwhile: a check
     * from there is due at once, unless one is pending already (it looks from further back).
     */
    void afterReconnect(PopulatorCheckpoint checkpoint) {
        if (pending == null) {
            pending = checkpoint;
            nextCheckNanos = System.nanoTime();
        }
    }
}
