package io.tidemark.cli.bucketprocessor;

import io.tidemark.bucketprocessor.BucketProcessorService;
import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ServiceLauncher;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "bucket-processor", mixinStandardHelpOptions = true,
        description = {"Walks lifecycle buckets a page per bucket task, as a member of the consumer group "
                + "<topic.prefix>bucket-processor: each page's object tasks, re-arm records and continuation task "
                + "commit with the consumed offset in one Kafka transaction.",
            "Serves /metrics, /healthz and /readyz on management.port; SIGTERM finishes the pages in hand."})
public final class BucketProcessorCommand implements Callable<Integer> {

    @Mixin
    private ConfigOptions options;

    @Override
    public Integer call() throws InterruptedException {
        return ServiceLauncher.run(options, "bucket-processor", (config, registry) -> new BucketProcessorService(config,
                Clock.systemUTC(), registry));
    }
}
