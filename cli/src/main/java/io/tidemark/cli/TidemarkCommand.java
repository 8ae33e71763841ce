package io.tidemark.cli;

import io.tidemark.cli.rules.RulesCommand;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "tidemark",
        mixinStandardHelpOptions = true,
        versionProvider = TidemarkVersion.class,
        description = "Applies S3 bucket lifecycle rules to a SeaweedFS cluster through a Kafka pipeline.",
        subcommands = {RulesCommand.class})
public final class TidemarkCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Without a subcommand there is nothing to do: show what there is, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
