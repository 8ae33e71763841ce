package io.tidemark.objectprocessor;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How many tasks are parked in the dead-letter topic now, counted every {@code interval}: what an operator has to act
 * on. The counter of tasks ever parked ({@code tidemark_object_processor_dlq_records_total}) never falls after a
 * replay or a purge, which only tombstone the topic; this figure does. Every instance exports the same figure.
 */
final class ParkedGauge implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ParkedGauge.class);

    private final ScheduledExecutorService timer;
    private volatile double parked = Double.NaN;

    private ParkedGauge(LongSupplier count, Duration interval) {
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "object-processor-dlq-count");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                parked = count.getAsLong();
            } catch (RuntimeException e) {
                // Unknown is not zero: the gauge shows no value until the topic can be read again.
                parked = Double.NaN;
                log.debug("parked tasks not counted: {}", e.toString());
            }
        }, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Starts counting with {@code count} and registers the gauge; close it with the service. */
    static ParkedGauge start(LongSupplier count, Duration interval, MeterRegistry meters) {
        ParkedGauge gauge = new ParkedGauge(count, interval);
        Gauge.builder("tidemark.object.processor.dlq.parked", gauge, g -> g.parked)
                .description("Tasks parked in the dead-letter topic now (not replayed or purged), counted every "
                        + "object-processor.dlq.count.interval.ms")
                .register(meters);
        return gauge;
    }

    double parked() {
        return parked;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
