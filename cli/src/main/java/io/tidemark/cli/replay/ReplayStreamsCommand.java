package io.tidemark.cli.replay;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ServiceLauncher;
import io.tidemark.replay.ReplayStreamsService;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

@Command(name = "replay-streams", mixinStandardHelpOptions = true,
        description = {"Turns the meta-log into durable lifecycle timers (Kafka Streams application "
                + "<topic.prefix>replay-streams, exactly-once) and fires due ones as object tasks. Run several: they "
                + "split the partitions, and one takes over another's timers from the changelog.",
            "Serves /metrics, /healthz and /readyz on management.port; stops on SIGTERM."})
public final class ReplayStreamsCommand implements Callable<Integer> {

    @Mixin
    private ConfigOptions options;

    @Override
    public Integer call() throws InterruptedException {
        return ServiceLauncher.run(options, "replay-streams",
                (config, registry) -> new ReplayStreamsService(config, Clock.systemUTC(), registry));
    }
}
