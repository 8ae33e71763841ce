package io.tidemark.cli.config;

import io.tidemark.cli.CommandGroup;
import io.tidemark.cli.ConfigOptions;
import io.tidemark.config.ConfigDocs;
import io.tidemark.config.TidemarkConfig;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "config", mixinStandardHelpOptions = true, description = "Shows and documents the settings.",
        subcommands = {ConfigCommand.Docs.class, ConfigCommand.Show.class})
public final class ConfigCommand extends CommandGroup {

    @Command(name = "docs", mixinStandardHelpOptions = true,
            description = "Prints the configuration reference in Markdown (docs/configuration.md).")
    static final class Docs implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(ConfigDocs.markdown("Configuration reference", TidemarkConfig.definition()));
            return 0;
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Prints the effective settings after file, environment and flags, secrets masked.")
    static final class Show implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() {
            options.load().effective().forEach((k, v) -> spec.commandLine().getOut().println(k + "=" + v));
            return 0;
        }
    }
}
