package io.tidemark.cli;

import io.tidemark.cli.rules.RulesCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "tidemark",
        mixinStandardHelpOptions = true,
        versionProvider = TidemarkVersion.class,
        description = "Applies S3 bucket lifecycle rules to a SeaweedFS cluster through a Kafka pipeline.",
        subcommands = {RulesCommand.class})
public final class TidemarkCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
