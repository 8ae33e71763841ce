package io.tidemark.cli.rules;

import io.tidemark.cli.CommandGroup;
import picocli.CommandLine.Command;

@Command(name = "rules",
        mixinStandardHelpOptions = true,
        description = "Check lifecycle configurations and evaluate them against test vectors.",
        subcommands = {ValidateCommand.class, EvalCommand.class})
public final class RulesCommand extends CommandGroup {
}
