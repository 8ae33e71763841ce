package io.tidemark.service;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one service the same way every time: log the effective configuration (secrets masked), open the management
 * port, start the service, and wait. One shutdown hook stops everything within {@code shutdown.timeout.ms}, so a
 * SIGTERM finishes inside Kubernetes' 30-second grace period; an exception escaping any thread fails the service
 * rather than leaving it half alive. The returned exit code is 0 after a requested stop, 1 after a failure.
 */
public final class ServiceRunner {

    private static final Logger log = LoggerFactory.getLogger(ServiceRunner.class);

    /** Where the shutdown hook is registered; the JVM's in production, a stand-in in tests. */
    public interface Hooks {
        void add(Thread hook);

        Hooks RUNTIME = hook -> Runtime.getRuntime().addShutdownHook(hook);
    }

    private final ManagedService service;
    private final TidemarkConfig config;
    private final PrometheusMeterRegistry registry;
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile ManagementServer management;

    public ServiceRunner(ManagedService service, TidemarkConfig config, PrometheusMeterRegistry registry) {
        this.service = service;
        this.config = config;
        this.registry = registry;
        Gauge.builder("tidemark.service.ready", service, s -> s.ready() ? 1 : 0)
                .description("1 while /readyz answers 200: the service runs and can do its work").register(registry);
    }

    /** Starts and blocks until the service is stopped or fails. */
    public int run(Hooks hooks) throws InterruptedException {
        logEffectiveConfig();
        management = ManagementServer.start(config.getString(TidemarkConfig.MANAGEMENT_HOST),
                config.getInt(TidemarkConfig.MANAGEMENT_PORT), registry, service::live, service::ready);
        Thread.setDefaultUncaughtExceptionHandler((thread, error) -> {
            log.error("uncaught exception in thread {}", thread.getName(), error);
            service.fail(error);
            finished.countDown();
        });
        hooks.add(new Thread(this::stop, service.name() + "-shutdown"));
        try {
            service.start();
            log.info("{} running; management on port {}", service.name(), management.port());
        } catch (RuntimeException e) {
            stop();
            return 1;
        }
        while (!finished.await(1, TimeUnit.SECONDS)) {
            if (service.state().finished()) {
                break;
            }
        }
        stop();
        return service.state() == ServiceState.FAILED ? 1 : 0;
    }

    public int managementPort() {
        return management.port();
    }

    /** Stops the service within the configured timeout, then the management port. Safe to call more than once. */
    public void stop() {
        Duration timeout = config.shutdownTimeout();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(service::close);
        try {
            closing.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.error("{} did not stop within {}; exiting anyway", service.name(), timeout);
        } catch (Exception e) {
            log.error("{} failed while stopping: {}", service.name(), e.toString());
        } finally {
            if (management != null) {
                management.close();
            }
            finished.countDown();
        }
    }

    private void logEffectiveConfig() {
        StringBuilder lines = new StringBuilder();
        for (Map.Entry<String, String> e : config.effective().entrySet()) {
            lines.append("\n  ").append(e.getKey()).append(" = ").append(e.getValue());
        }
        log.info("{} effective configuration:{}", service.name(), lines);
    }
}
