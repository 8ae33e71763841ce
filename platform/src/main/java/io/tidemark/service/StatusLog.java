package io.tidemark.service;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * A service's periodic status line: one daemon thread logs the line at INFO every interval, so an operator reading
 * only the log sees how the service is doing. Close stops it.
 */
public final class StatusLog implements AutoCloseable {

    private final ScheduledExecutorService executor;

    private StatusLog(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    public static StatusLog start(String service, Duration interval, Logger log, Supplier<String> line) {
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, service + "-status");
            t.setDaemon(true);
            return t;
        });
        long ms = interval.toMillis();
        executor.scheduleAtFixedRate(() -> log.info(line.get()), ms, ms, TimeUnit.MILLISECONDS);
        return new StatusLog(executor);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
