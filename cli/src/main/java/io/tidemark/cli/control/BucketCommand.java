package io.tidemark.cli.control;

import io.tidemark.cli.CommandGroup;
import picocli.CommandLine.Command;

@Command(name = "bucket", mixinStandardHelpOptions = true,
        description = "Per-bucket switches an operator sets while the pipeline runs.",
        subcommands = {DryRunCommand.class})
public final class BucketCommand extends CommandGroup {
}
