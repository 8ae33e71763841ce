package io.tidemark.checker;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.bucketprocessor.BucketProcessorService;
import io.tidemark.checker.model.HistoryGenerator;
import io.tidemark.conductor.Conductor;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.SkewedClock;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import java.nio.file.Path;
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
 * The four long-running services, {@code instances} of each (populators contend for leadership, the others share their
 * groups' partitions), each instance restartable on its own (a restart is a stop and a new instance, a new member of
 * its group), and conductor passes on a fixed interval, as cron would trigger them. The services run in this process,
 * where an instance's clock can be skewed while it runs, or each as a process of its own ({@code processMain}), where
 * a restart is a kill -9.
 */
final class Pipeline implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(Pipeline.class);

    private final Map<String, String> settings;
    private final TidemarkConfig config;
    private final int instances;
    private final Class<?> processMain;
    /** Where the log of each service process is written when it ends. */
    private final Path logDir;
    private final java.util.concurrent.atomic.AtomicInteger started = new java.util.concurrent.atomic.AtomicInteger();
    private final Map<String, ServiceInstance> services = new ConcurrentHashMap<>();
    /** Each instance's clock, kept across its restarts (a restarted process on a skewed host is still skewed). */
    private final Map<String, SkewedClock> clocks = new ConcurrentHashMap<>();
    private final List<Failure> failures = new CopyOnWriteArrayList<>();
    private final Set<String> restarting = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService timers = Executors.newScheduledThreadPool(4, r -> {
        Thread t = new Thread(r, "checker-pipeline");
        t.setDaemon(true);
        return t;
    });
    private Conductor conductor;
    /** No conductor pass before this instant (nanoTime): its cron is not running. */
    private volatile long passesResumeAt = System.nanoTime();

    /**
     * @param settings    the run's settings; each replay-streams instance gets a state directory of its own
     * @param processMain the services' entry point, to run each instance as a process; null to run them here
     * @param logDir      where each service process's log is written when it ends
     */
    Pipeline(Map<String, String> settings, int instances, Class<?> processMain, Path logDir) {
        this.logDir = logDir;
        this.settings = Map.copyOf(settings);
        this.config = new TidemarkConfig(settings);
        this.instances = instances;
        this.processMain = processMain;
    }

    /** Starts every service and waits until each is ready; then conductor passes every {@code passInterval}. */
    void start(Duration passInterval) throws InterruptedException {
        for (String name : HistoryGenerator.SERVICES) {
            for (int i = 0; i < instances; i++) {
                services.put(name + "#" + i, create(name, i));
            }
        }
        for (ServiceInstance service : services.values()) {
            service.awaitReady(Duration.ofSeconds(120));
        }
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
                failures.add(new Failure(id, Instant.now(), service.failure()));
                log.warn("{} failed ({}); started again in a second, as a supervisor would", id, service.failure());
                replace(id, Duration.ofSeconds(1), false);
            }
        });
    }

    /** No conductor pass for {@code length}, as when its cron job is suspended or failing to start. */
    void skipPasses(Duration length) {
        passesResumeAt = System.nanoTime() + length.toNanos();
    }

    private void pass() {
        if (System.nanoTime() - passesResumeAt < 0) {
            return;
        }
        try {
            conductor.runPass();
        } catch (RuntimeException e) {
            // A pass during a fault may fail; the next one comes at the next interval, as a cron's would.
            log.debug("conductor pass failed: {}", e.toString());
        }
    }

    /** A new instance, started (a start that fails leaves a failed instance, which the supervisor sees). */
    private ServiceInstance create(String name, int instance) {
        Map<String, String> own = instanceSettings(instance);
        if (processMain != null) {
            try {
                return ServiceInstance.process(processMain, name, own, logDir.resolve(String.format(
                        java.util.Locale.ROOT, "%02d-%s-%d.log", started.incrementAndGet(), name, instance)));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        Clock clock = clocks.computeIfAbsent(name + "#" + instance, id -> new SkewedClock(Clock.systemUTC()));
        TidemarkConfig ownConfig = new TidemarkConfig(own);
        return ServiceInstance.inProcess(switch (name) {
            case "populator" -> new PopulatorService(ownConfig, clock, meters);
            case "replay-streams" -> new ReplayStreamsService(ownConfig, clock, meters);
            case "object-processor" -> new ObjectProcessorService(ownConfig, clock, meters);
            case "bucket-processor" -> new BucketProcessorService(ownConfig, clock, meters);
            default -> throw new IllegalArgumentException("no service " + name);
        });
    }

    /** Every instance's state directory is its own. */
    private Map<String, String> instanceSettings(int instance) {
        if (instance == 0) {
            return settings;
        }
        Map<String, String> own = new java.util.LinkedHashMap<>(settings);
        own.put("replay-streams.state.dir", settings.get("replay-streams.state.dir") + "-" + instance);
        return own;
    }

    /** {@code name#n}, n taken modulo the number of instances. */
    private String instanceId(String instance) {
        String name = instance.contains("#") ? instance.substring(0, instance.indexOf('#')) : instance;
        int i = instance.contains("#") ? Math.floorMod(Integer.parseInt(instance.substring(instance.indexOf('#') + 1)),
                instances) : 0;
        return name + "#" + i;
    }

    /**
     * Sets an instance's clock {@code offset} off the true time (ahead when positive), while it runs; only for services
     * in this process.
     */
    void skewClock(String instance, Duration offset) {
        if (processMain != null) {
            throw new IllegalStateException("a service's clock is skewed only in this process");
        }
        clocks.computeIfAbsent(instanceId(instance), id -> new SkewedClock(Clock.systemUTC())).set(offset);
    }

    /** Sets an instance's clock right again, unless a later skew replaced {@code offset} meanwhile. */
    void unskewClock(String instance, Duration offset) {
        clocks.computeIfAbsent(instanceId(instance), id -> new SkewedClock(Clock.systemUTC())).reset(offset);
    }

    /**
     * Stops one instance of a service ({@code name#n}, n taken modulo the number of instances) now — with SIGKILL when
     * {@code kill} and it is a process — and starts a new one in its place after {@code downtime}, off the caller's
     * thread.
     */
    void restart(String instance, Duration downtime, boolean kill) {
        String id = instanceId(instance);
        // One restart of an instance at a time: a second would start an instance the first's would overwrite.
        if (!restarting.add(id)) {
            log.info("{} is being started again already; this restart is left out", id);
            return;
        }
        replace(id, downtime, kill);
    }

    /**
     * Stops every instance of service {@code name}, runs {@code whileDown} with none of them running, and starts new
     * ones after {@code downtime}, off the caller's thread. An instance being restarted already is waited for first:
     * started during {@code whileDown}, it would run through it.
     */
    void whileStopped(String name, Duration downtime, Runnable whileDown) {
        timers.execute(() -> {
            List<String> ids = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < instances; i++) {
                    String id = name + "#" + i;
                    while (!restarting.add(id)) {
                        Thread.sleep(50);
                    }
                    ids.add(id);
                }
                ids.parallelStream().map(services::get).filter(java.util.Objects::nonNull)
                        .forEach(ServiceInstance::close);
                long began = System.nanoTime();
                try {
                    whileDown.run();
                } catch (RuntimeException e) {
                    log.warn("while {} was stopped: {}", name, e.toString());
                }
                long left = downtime.toMillis() - Duration.ofNanos(System.nanoTime() - began).toMillis();
                Thread.sleep(Math.max(0, left));
                for (String id : ids) {
                    try {
                        services.put(id, create(name, Integer.parseInt(id.substring(id.indexOf('#') + 1))));
                    } catch (RuntimeException e) {
                        log.warn("{} did not start again: {}", id, e.toString());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                restarting.removeAll(ids);
            }
        });
    }

    /** Stops instance {@code id} (marked as restarting by the caller) and starts a new one after {@code downtime}. */
    private void replace(String id, Duration downtime, boolean kill) {
        String name = id.substring(0, id.indexOf('#'));
        int i = Integer.parseInt(id.substring(id.indexOf('#') + 1));
        timers.execute(() -> {
            try {
                ServiceInstance old = services.get(id);
                if (old != null) {
                    if (kill) {
                        old.kill();
                    } else {
                        old.close();
                    }
                }
                Thread.sleep(downtime.toMillis());
                // A start that fails (Kafka still away) leaves an instance that is not live, which the supervisor sees.
                services.put(id, create(name, i));
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
        services.values().parallelStream().forEach(ServiceInstance::close);
        if (conductor != null) {
            conductor.close();
        }
    }
}
