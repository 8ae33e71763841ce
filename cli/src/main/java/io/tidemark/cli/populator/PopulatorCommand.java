package io.tidemark.cli.populator;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ServiceLauncher;
import io.tidemark.populator.PopulatorService;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "populator", mixinStandardHelpOptions = true,
        description = {"Tails the filer meta-log into the meta-log topic exactly once and keeps the lifecycle bucket "
                + "registry in ZooKeeper. Run as many as you like: one leads, the others stand by.",
            "Serves /metrics, /healthz and /readyz on management.port; stops on SIGTERM."})
public final class PopulatorCommand implements Callable<Integer> {

    @Mixin
    private ConfigOptions options;

    @Override
    public Integer call() throws InterruptedException {
        return ServiceLauncher.run(options, "populator", (config, registry) -> new PopulatorService(config, Clock.systemUTC(), registry));
    }
}
