package io.tidemark.cli.lifecycle;

import io.tidemark.cli.CommandGroup;
import picocli.CommandLine.Command;

@Command(name = "lifecycle",
        mixinStandardHelpOptions = true,
        description = "Look at what lifecycle rules do to a bucket before they do it.",
        subcommands = {WhatIfCommand.class})
public final class LifecycleCommand extends CommandGroup {
}
