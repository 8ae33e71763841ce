package io.tidemark.conductor;

import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.service.ManagedService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code tidemark conductor --schedule "<cron>"}: runs a walker pass whenever the cron expression says, as a
 * long-running service with the management endpoint. A failed pass is logged and counted and the schedule goes
 * on; SIGTERM lets a pass in hand finish (it is short: it only seeds tasks).
 */
public final class ConductorService extends ManagedService {

    private static final Logger log = LoggerFactory.getLogger(ConductorService.class);

    private final TidemarkConfig config;
    private final Clock clock;
    private final MeterRegistry meters;
    private final CronSchedule schedule;
    private final AtomicReference<PassReport> lastPass = new AtomicReference<>();

    private volatile boolean running;
    private volatile Conductor conductor;
    private volatile Thread worker;
    private final Object wake = new Object();

    public ConductorService(TidemarkConfig config, Clock clock, MeterRegistry meters, String cron) {
        super("conductor");
        this.config = config;
        this.clock = clock;
        this.meters = meters;
        this.schedule = CronSchedule.parse(cron);
    }

    /** The most recent pass, if one ran. */
    public Optional<PassReport> lastPass() {
        return Optional.ofNullable(lastPass.get());
    }

    public ConductorMetrics metrics() {
        return conductor.metrics();
    }

    @Override
    protected void doStart() {
        running = true;
        conductor = Conductor.open(config, clock, meters);
        log.info("conductor scheduled on \"{}\" (UTC); next pass at {}", schedule,
                schedule.next(clock.instant()).map(Instant::toString).orElse("never"));
        worker = startWorker("conductor-schedule", this::work);
    }

    private void work() {
        Instant after = clock.instant();
        while (running) {
            Optional<Instant> next = schedule.next(after);
            if (next.isEmpty()) {
                log.warn("the schedule \"{}\" names no further time; no more passes", schedule);
                return;
            }
            if (!waitUntil(next.get())) {
                return;
            }
            after = next.get();
            lastPass.set(conductor.runPass());
        }
    }

    /** Waits for {@code at} on the service's clock, checking often enough to follow a clock that moves in tests. */
    private boolean waitUntil(Instant at) {
        synchronized (wake) {
            while (running) {
                long millis = Duration.between(clock.instant(), at).toMillis();
                if (millis <= 0) {
                    return true;
                }
                try {
                    wake.wait(Math.min(millis, 1_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return false;
        }
    }

    @Override
    protected boolean readinessCheck() {
        Conductor c = conductor;
        return c != null && c.connected();
    }

    @Override
    protected void doStop() throws Exception {
        running = false;
        synchronized (wake) {
            wake.notifyAll();
        }
        stopWorker(worker, config.shutdownTimeout());
        if (conductor != null) {
            conductor.close();
        }
    }
}
