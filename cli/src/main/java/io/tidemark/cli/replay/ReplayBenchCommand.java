package io.tidemark.cli.replay;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures meta-log events/s armed as timers under exactly-once against a raw consumer reading "
                + "the same topic in the same run, then timers fired/s with all of them pending, on an in-process Kafka.")
public final class ReplayBenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--events", defaultValue = "200000", description = "Object-written events (default ${DEFAULT-VALUE}).")
    private int events;

    @Option(names = "--day-seconds", defaultValue = "90",
            description = "Lifecycle day: every timer falls due this long after the writes (default ${DEFAULT-VALUE}).")
    private int daySeconds;

    @Override
    public Integer call() throws Exception {
        return ReplayBenchmark.run(new ReplayBenchmark.Options(events, daySeconds), spec.commandLine().getOut()) ? 0 : 1;
    }
}
