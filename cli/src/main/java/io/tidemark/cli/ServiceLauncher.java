package io.tidemark.cli;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
import io.tidemark.service.ServiceRunner;
import java.util.function.BiFunction;

/** What every service command does: load the settings, build the service on a fresh meter registry, run it. */
public final class ServiceLauncher {

    private ServiceLauncher() {
    }

    /** Blocks until the service stops; the exit code is 0 after a requested stop, 1 after a failure. */
    public static int run(ConfigOptions options, String service,
                          BiFunction<TidemarkConfig, MeterRegistry, ManagedService> factory) throws InterruptedException {
        TidemarkConfig config = options.load();
        PrometheusMeterRegistry registry = Metrics.newRegistry(service);
        return new ServiceRunner(factory.apply(config, registry), config, registry).run(ServiceRunner.Hooks.RUNTIME);
    }
}
