package io.tidemark.cli.objectprocessor;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ServiceLauncher;
import io.tidemark.objectprocessor.ObjectProcessorService;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "object-processor", mixinStandardHelpOptions = true,
        description = {"Carries out object tasks through the S3 gateway's identity-checked LifecycleDelete, as a member "
                + "of the consumer group <topic.prefix>object-processor. Run as many as the topic has partitions; "
                + "they share object-processor.deletes.per.second by the partitions each holds.",
            "Serves /metrics, /healthz and /readyz on management.port; SIGTERM lets calls in flight finish."})
public final class ObjectProcessorCommand implements Callable<Integer> {

    @Mixin
    private ConfigOptions options;

    @Override
    public Integer call() throws InterruptedException {
        return ServiceLauncher.run(options, "object-processor", (config, registry) -> new ObjectProcessorService(config,
                Clock.systemUTC(), registry));
    }
}
