package io.tidemark.localcluster;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
import io.tidemark.service.ServiceRunner;
import io.tidemark.service.ServiceState;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * The body of a test's child-process service: runs one service exactly as its {@code tidemark} command does, from
 * {@code key=value} settings, and prints {@code READY <management port>} for {@link ChildNode} once it runs, so a
 * test can kill it with SIGKILL at any moment.
 */
public final class ChildService {

    private ChildService() {
    }

    public static void run(String name, String[] args,
                           BiFunction<TidemarkConfig, MeterRegistry, ManagedService> factory) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            settings.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        TidemarkConfig config = new TidemarkConfig(settings);
        PrometheusMeterRegistry registry = Metrics.newRegistry(name);
        ManagedService service = factory.apply(config, registry);
        ServiceRunner runner = new ServiceRunner(service, config, registry);
        int[] exit = {1};
        Thread main = new Thread(() -> {
            try {
                exit[0] = runner.run(ServiceRunner.Hooks.RUNTIME);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name + "-main");
        main.start();
        while (service.state() == ServiceState.NEW || service.state() == ServiceState.STARTING) {
            Thread.sleep(20);
        }
        if (service.state() == ServiceState.RUNNING) {
            System.out.println("READY " + runner.managementPort());
            System.out.flush();
        }
        main.join();
        System.exit(exit[0]);
    }
}
