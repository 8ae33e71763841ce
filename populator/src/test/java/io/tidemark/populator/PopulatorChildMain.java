package io.tidemark.populator;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.service.Metrics;
import io.tidemark.service.ServiceRunner;
import io.tidemark.service.ServiceState;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A populator in its own JVM, run exactly as {@code tidemark populator} runs it, so tests can kill it with
 * SIGKILL. Arguments are {@code key=value} settings; prints {@code READY <management port>} once it runs.
 */
public final class PopulatorChildMain {

    private PopulatorChildMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            settings.put(arg.substring(0, eq), arg.substring(eq + 1));
        }
        TidemarkConfig config = new TidemarkConfig(settings);
        PrometheusMeterRegistry registry = Metrics.newRegistry("populator");
        PopulatorService service = new PopulatorService(config, Clock.systemUTC(), registry);
        ServiceRunner runner = new ServiceRunner(service, config, registry);
        int[] exit = {1};
        Thread main = new Thread(() -> {
            try {
                exit[0] = runner.run(ServiceRunner.Hooks.RUNTIME);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "populator-main");
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
