package io.tidemark.cli.rules;

import io.tidemark.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "rules",
        mixinStandardHelpOptions = true,
        description = "Check lifecycle configurations and evaluate them against test vectors.",
        subcommands = {ValidateCommand.class, EvalCommand.class})
public final class RulesCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    /** Without a subcommand there is nothing to do: show what there is, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
