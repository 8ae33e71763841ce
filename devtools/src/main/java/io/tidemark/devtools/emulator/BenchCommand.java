package io.tidemark.devtools.emulator;

import io.tidemark.emulator.bench.EmulatorBenchmark;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures raw ListEntries entries/s and LifecycleDelete calls/s against an in-process emulator "
                + "over loopback: the baselines later stages are compared with.")
public final class BenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--entries", defaultValue = "100000", description = "Entries to list (default ${DEFAULT-VALUE}).")
    private int entries;

    @Option(names = "--page-size", defaultValue = "1024", description = "ListEntries page size (default ${DEFAULT-VALUE}).")
    private int pageSize;

    @Option(names = "--deletes", defaultValue = "20000", description = "LifecycleDelete calls per round "
            + "(default ${DEFAULT-VALUE}).")
    private int deletes;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of each measurement (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Override
    public Integer call() throws Exception {
        EmulatorBenchmark.run(new EmulatorBenchmark.Options(entries, pageSize, deletes, rounds), spec.commandLine().getOut());
        return 0;
    }
}
