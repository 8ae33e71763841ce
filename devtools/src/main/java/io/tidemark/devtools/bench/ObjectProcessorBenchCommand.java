package io.tidemark.devtools.bench;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures deletes/s from object-tasks through the object processor against raw LifecycleDelete "
                + "calls at the same concurrency in the same run, then the throttle's accuracy with two instances "
                + "sharing a set rate, on an in-process Kafka and emulator.")
public final class ObjectProcessorBenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--tasks", defaultValue = "20000", description = "Deletes per round (default ${DEFAULT-VALUE}).")
    private int tasks;

    @Option(names = "--rounds", defaultValue = "3", description = "Measured rounds after a warm-up (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--concurrency", defaultValue = "64",
            description = "Calls in flight, raw and object-processor.max.in.flight (default ${DEFAULT-VALUE}).")
    private int concurrency;

    @Option(names = "--rate", defaultValue = "500", description = "Group rate for the throttle run (default ${DEFAULT-VALUE}/s).")
    private double rate;

    @Option(names = "--throttle-seconds", defaultValue = "20",
            description = "Length of the throttle run (default ${DEFAULT-VALUE} s).")
    private int throttleSeconds;

    @Override
    public Integer call() throws Exception {
        boolean allDone = ObjectProcessorBenchmark.run(new ObjectProcessorBenchmark.Options(tasks, rounds, concurrency,
                rate, throttleSeconds), spec.commandLine().getOut());
        return allDone ? 0 : 1;
    }
}
