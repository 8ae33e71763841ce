package io.tidemark.devtools.quickstart;

import io.tidemark.service.ManagedService;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Where the time to READY went: one line per phase, and per service the moment it became ready. */
final class StartupPhases {

    private static final Logger log = LoggerFactory.getLogger(StartupPhases.class);

    private record Phase(String name, long atNanos) {
    }

    private final long began;
    private final List<Phase> phases = new ArrayList<>();

    StartupPhases(long beganNanos) {
        this.began = beganNanos;
    }

    void done(String phase) {
        phases.add(new Phase(phase, System.nanoTime()));
    }

    /** Waits until every service is ready, noting when each became so (see {@link ManagedService#awaitReady}). */
    void awaitReady(List<? extends ManagedService> services, Duration timeout) throws InterruptedException {
        ManagedService.awaitReady(services, timeout, service -> done(service.name() + " ready"));
    }

    /** Logs the phases, and prints them too when {@code out} is given. */
    void report(PrintWriter out) {
        long previous = began;
        for (Phase phase : phases) {
            String line = String.format(Locale.ROOT, "startup: %-52s at %5.2f s (+%.2f s)", phase.name(),
                    (phase.atNanos() - began) / 1e9, (phase.atNanos() - previous) / 1e9);
            log.info(line);
            if (out != null) {
                out.println(line);
            }
            previous = phase.atNanos();
        }
    }
}
