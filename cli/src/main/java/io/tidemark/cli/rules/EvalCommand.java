package io.tidemark.cli.rules;

import io.tidemark.cli.ExitCodes;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "eval",
        mixinStandardHelpOptions = true,
        description = {"Runs lifecycle vectors (JSON lines) through the rules engine.",
            "Prints one JSON object per vector, in input order, then 'N passed, M failed' when the vectors carry "
                + "expectations. Exits 1 when any vector failed or could not be read."})
public final class EvalCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--vectors", required = true, paramLabel = "FILE.jsonl", description = "The vectors to run.")
    private Path vectors;

    @Option(names = "--due-policy", paramLabel = "aws|exact", defaultValue = "aws",
            description = "aws: due times rounded up to the next 00:00 UTC (default); exact: no rounding.")
    private String duePolicy;

    @Option(names = "--day-length", paramLabel = "DURATION", defaultValue = "P1D",
            description = "The length of a lifecycle day as an ISO-8601 duration (default P1D).")
    private Duration dayLength;

    @Option(names = "--validation-mode", paramLabel = "aws|seaweedfs", defaultValue = "aws",
            description = "aws: configurations checked as S3 checks them (default); seaweedfs: also what SeaweedFS's "
                    + "gateway accepts (NewerNoncurrentVersions without NoncurrentDays).")
    private String validationMode;

    @Override
    public Integer call() {
        RuleReader rules;
        try {
            rules = new RuleReader(ValidationMode.parse(validationMode),
                    LifecycleCalendar.of(DuePolicy.parse(duePolicy), dayLength));
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("error: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        VectorRunner.Summary summary;
        try (BufferedReader reader = Files.newBufferedReader(vectors, StandardCharsets.UTF_8)) {
            summary = new VectorRunner(rules).run(reader, spec.commandLine().getOut());
        } catch (IOException e) {
            spec.commandLine().getErr().println("error: cannot read " + vectors + ": " + e);
            return ExitCodes.FAILURE;
        }
        if (summary.anyExpectation()) {
            spec.commandLine().getOut().println(summary.passed() + " passed, " + summary.failed() + " failed");
        }
        return summary.failed() == 0 ? ExitCodes.OK : ExitCodes.FAILURE;
    }
}
