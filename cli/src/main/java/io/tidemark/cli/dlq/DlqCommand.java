package io.tidemark.cli.dlq;

import io.tidemark.cli.CommandGroup;
import picocli.CommandLine.Command;

@Command(name = "dlq", mixinStandardHelpOptions = true,
        description = "The object processor's dead-letter topic: what is parked and why, sending it back, giving it up.",
        subcommands = {DlqListCommand.class, DlqReplayCommand.class, DlqPurgeCommand.class})
public final class DlqCommand extends CommandGroup {
}
