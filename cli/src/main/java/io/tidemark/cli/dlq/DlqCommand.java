package io.tidemark.cli.dlq;

import io.tidemark.cli.CommandGroup;
import picocli.CommandLine.Command;

@Command(name = "dlq", mixinStandardHelpOptions = true,
        description = "The object processor's dead-letter topic: what is parked and why, and sending it back.",
        subcommands = {DlqListCommand.class, DlqReplayCommand.class})
public final class DlqCommand extends CommandGroup {
}
