package io.tidemark.devtools.campaign;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "campaign", mixinStandardHelpOptions = true,
        description = {"Runs a fault campaign on this machine: the whole pipeline with every service as its own "
                + "process and Kafka and ZooKeeper as child processes, rounds of objects falling due, one fault per "
                + "round (kill -9 of a service, Kafka or ZooKeeper; the filer UNAVAILABLE or slow; identity drift), "
                + "all chosen from one seed.",
            "Exit 0 when there was no wrongful delete, no lost expiration, nothing parked and nothing held; 1 "
                + "otherwise. Takes minutes; not part of the test suite."})
public final class CampaignCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--seed", description = "The seed (default: the current time); printed first, to replay a run.")
    private Long seed;

    @Option(names = "--rounds", defaultValue = "10", description = "Rounds (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--round-seconds", defaultValue = "15", description = "Length of a round (default ${DEFAULT-VALUE}).")
    private int roundSeconds;

    @Option(names = "--day-seconds", defaultValue = "10", description = "Length of a lifecycle day (default ${DEFAULT-VALUE}).")
    private int daySeconds;

    @Option(names = "--heal-seconds", defaultValue = "240",
            description = "How long due objects may take to go once the faults heal (default ${DEFAULT-VALUE}).")
    private int healSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        long chosen = seed == null ? System.currentTimeMillis() : seed;
        long began = System.nanoTime();
        Campaign.Result result = new Campaign(new Campaign.Options(chosen, rounds, Duration.ofSeconds(roundSeconds),
                daySeconds, Duration.ofSeconds(healSeconds)), out).run();
        out.printf("campaign seed=%d: %d objects, %d faults, %d wrongful deletes, %d lost expirations, %d parked, "
                        + "%d unconsumed, %.0f s: %s%n", chosen, result.fates(), result.faults().size(),
                result.wrongful().size(), result.lost().size(), result.parked(), result.unconsumed(),
                (System.nanoTime() - began) / 1e9, result.passed() ? "PASSED" : "FAILED");
        result.wrongful().forEach(w -> out.println("  wrongful: " + w));
        result.lost().forEach(l -> out.println("  lost: " + l));
        out.flush();
        return result.passed() ? 0 : 1;
    }
}
