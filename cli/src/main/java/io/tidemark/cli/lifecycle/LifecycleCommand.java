package io.tidemark.cli.lifecycle;

import io.tidemark.cli.CommandGroup;
import picocli.CommandLine.Command;

@Command(name = "lifecycle",
        mixinStandardHelpOptions = true,
        description = "Look at what lifecycle rules do to a bucket before they do it, and at the lifecycle settings "
                + "the cluster's services share.",
        subcommands = {WhatIfCommand.class, SettingsCommand.class})
public final class LifecycleCommand extends CommandGroup {
}
