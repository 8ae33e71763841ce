package io.tidemark.devtools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures events/s from the emulator's meta-log into Kafka under exactly-once, against the raw "
                + "SubscribeMetadata rate in the same run, on an in-process Kafka, ZooKeeper and emulator; with "
                + "--cold-start-buckets, the cold start's buckets/s against the raw listing rate instead.")
public final class PopulatorBenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--events", defaultValue = "300000", description = "Filer events to publish (default ${DEFAULT-VALUE}).")
    private int events;

    @Option(names = "--rounds", defaultValue = "3", description = "Rounds of each measurement (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--batch-max-events", defaultValue = "5000",
            description = "populator.batch.max.events for the run (default ${DEFAULT-VALUE}).")
    private int batchMaxEvents;

    @Option(names = "--filers", defaultValue = "1",
            description = "Filers the emulator runs, the events spread over them; with more than one each round measures "
                    + "three paths, each against its raw rate: the first filer's aggregated stream, each filer's own log "
                    + "caught up from the log files, and each filer's own log tailed from memory (default ${DEFAULT-VALUE}).")
    private int filers;

    @Option(names = "--cold-start-buckets", defaultValue = "0",
            description = "Measure a cold start over this many lifecycle buckets instead of the event rate.")
    private int coldStartBuckets;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Another setting for the populator under test, e.g. kafka.producer.linger.ms=20. Repeatable.")
    private List<String> settings = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (filers < 1) {
            throw new ParameterException(spec.commandLine(), "--filers must be at least 1: " + filers);
        }
        if (coldStartBuckets > 0) {
            return ColdStartBenchmark.run(new ColdStartBenchmark.Options(coldStartBuckets, rounds,
                    ReplayBenchCommand.known(settings)), spec.commandLine().getOut()) ? 0 : 1;
        }
        boolean exact = PopulatorBenchmark.run(new PopulatorBenchmark.Options(events, rounds, batchMaxEvents,
                filers, ReplayBenchCommand.known(settings)), spec.commandLine().getOut());
        return exact ? 0 : 1;
    }
}
