package io.tidemark.devtools.bench;

import io.tidemark.config.ConfigLoader;
import io.tidemark.config.TidemarkConfig;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
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

    @Option(names = "--rate", defaultValue = "0",
            description = "Due objects per second: the writes' times are spread so that timers fall due at this steady "
                    + "rate, and the due-to-task latency is measured by a read-committed consumer of object-tasks. "
                    + "0 (default): every timer falls due at once.")
    private int rate;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Another setting for replay-streams under test, e.g. kafka.streams.commit.interval.ms=1000. "
                    + "Repeatable.")
    private List<String> settings = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        return ReplayBenchmark.run(new ReplayBenchmark.Options(events, daySeconds, rate, known(settings)),
                spec.commandLine().getOut()) ? 0 : 1;
    }

    /** The --set flags, every one a known setting (or a Kafka client's). */
    static Map<String, String> known(List<String> settings) {
        Map<String, String> flags = ConfigLoader.flags(settings);
        ConfigLoader.refuseUnknown(TidemarkConfig.definition(), flags);
        return flags;
    }
}
