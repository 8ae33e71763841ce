package io.tidemark.checker;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.bucketprocessor.BucketProcessorService;
import io.tidemark.checker.model.HistoryGenerator;
import io.tidemark.conductor.Conductor;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.service.ManagedService;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The four long-running services in this process, {@code instances} of each (populators contend for leadership, the
 * others share their groups' partitions), each instance restartable on its own (a restart is a stop and a new
 * instance, a new member of its group), and conductor passes on a fixed interval, as cron would trigger them.
 */
final class Pipeline implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Pipeline.class);

    private final Map<String, String> settings;
    private final TidemarkConfig config;
    private final int instances;
    private final Map<String, ManagedService> services = new ConcurrentHashMap<>();
    private final List<Failure> failures = new CopyOnWriteArrayList<>();
    private final Set<String> restarting = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(4, r -> {
        Thread t = new Thread(r, "checker-pipeline");
        t.setDaemon(true);
        return t;
    });
    private Conductor conductor;

    /** @param settings the run's settings; each replay-streams instance gets a state directory of its own */
    Pipeline(Map<String, String> settings, int instances) {
        this.settings = Map.copyOf(settings);
        this.config = new TidemarkConfig(settings);
        this.instances = instances;
    }

    /** Starts every service and waits until each is ready; then conductor passes every {@code passInterval}. */
    void start(Duration passInterval) throws InterruptedException {
        for (String name : HistoryGenerator.SERVICES) {
            for (int i = 0; i < instances; i++) {
                ManagedService service = create(name, i);
                services.put(name + "#" + i, service);
                service.start();
            }
        }
        ManagedService.awaitReady(List.copyOf(services.values()), Duration.ofSeconds(120));
        conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry());
        timers.scheduleWithFixedDelay(this::pass, passInterval.toMillis(), passInterval.toMillis(),
                TimeUnit.MILLISECONDS);
        timers.scheduleWithFixedDelay(this::supervise, 500, 500, TimeUnit.MILLISECONDS);
    }

    /** A service instance that failed, and when. */
    record Failure(String instance, Instant at, String cause) {
    }

    /**
     * What a supervisor (Kubernetes, systemd) does: a failed instance is noted and started again a second later. A
     * failure is part of the findings unless a Kafka or ZooKeeper restart explains it ({@link CheckRun}).
     */
    private void supervise() {
        services.forEach((id, service) -> {
            if (!service.live() && restarting.add(id)) {
                failures.add(new Failure(id, Instant.now(), String.valueOf(service.failure())));
                log.warn("{} failed ({}); started again in a second, as a supervisor would", id, service.failure());
                restart(id, Duration.ofSeconds(1));
            }
        });
    }

    private void pass() {
        try {
            conductor.runPass();
        } catch (RuntimeException e) {
            // A pass during a fault may fail; the next one comes at the next interval, as a cron's would.
            log.debug("conductor pass failed: {}", e.toString());
        }
    }

    private ManagedService create(String name, int instance) {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        return switch (name) {
            case "populator" -> new PopulatorService(config, Clock.systemUTC(), meters);
            case "replay-streams" -> new ReplayStreamsService(instanceConfig(instance), Clock.systemUTC(), meters);
            case "object-processor" -> new ObjectProcessorService(config, Clock.systemUTC(), meters);
            case "bucket-processor" -> new BucketProcessorService(config, Clock.systemUTC(), meters);
            default -> throw new IllegalArgumentException("no service " + name);
        };
    }

    private TidemarkConfig instanceConfig(int instance) {
        if (instance == 0) {
            return config;
        }
        Map<String, String> own = new java.util.HashMap<>(settings);
        own.put("replay-streams.state.dir", settings.get("replay-streams.state.dir") + "-" + instance);
        return new TidemarkConfig(own);
    }

    /**
     * Stops one instance of a service ({@code name#n}, n taken modulo the number of instances) now and starts a new
     * one in its place after {@code downtime}, off the caller's thread.
     */
    void restart(String instance, Duration downtime) {
        String name = instance.contains("#") ? instance.substring(0, instance.indexOf('#')) : instance;
        int i = instance.contains("#") ? Math.floorMod(Integer.parseInt(instance.substring(instance.indexOf('#') + 1)),
                instances) : 0;
        String id = name + "#" + i;
        restarting.add(id);
        timers.execute(() -> {
            try {
                ManagedService old = services.get(id);
                if (old != null) {
                    old.close();
                }
                Thread.sleep(downtime.toMillis());
                ManagedService fresh = create(name, i);
                services.put(id, fresh);
                // A start that fails (Kafka still away) leaves a failed instance, which the supervisor sees again.
                fresh.start();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                log.warn("{} did not start again: {}", id, e.toString());
            } finally {
                restarting.remove(id);
            }
        });
    }

    /** Every failure of a service instance during the run, in order. */
    List<Failure> failures() {
        return List.copyOf(failures);
    }

    @Override
    public void close() {
        timers.shutdownNow();
        try {
            timers.awaitTermination(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        services.values().parallelStream().forEach(ManagedService::close);
        if (conductor != null) {
            conductor.close();
        }
    }
}
