package io.tidemark.cli.rules;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "rules",
        mixinStandardHelpOptions = true,
        description = "Check lifecycle configurations and evaluate them against test vectors.",
        subcommands = {ValidateCommand.class, EvalCommand.class})
public final class RulesCommand implements Runnable {

    @Spec
    private CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
