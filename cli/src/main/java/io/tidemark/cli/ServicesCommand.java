package io.tidemark.cli;

import io.tidemark.cli.audit.AuditCommand;
import io.tidemark.cli.config.ConfigCommand;
import io.tidemark.cli.control.BucketCommand;
import io.tidemark.cli.control.PauseCommand;
import io.tidemark.cli.control.ResumeCommand;
import io.tidemark.cli.dlq.DlqCommand;
import io.tidemark.cli.lifecycle.LifecycleCommand;
import io.tidemark.cli.objectprocessor.ObjectProcessorCommand;
import io.tidemark.cli.platform.TopicsCommand;
import io.tidemark.cli.populator.PopulatorCommand;
import io.tidemark.cli.replay.ReplayStreamsCommand;
import io.tidemark.cli.rules.RulesCommand;
import io.tidemark.cli.status.StatusCommand;
import io.tidemark.cli.bucketprocessor.BucketProcessorCommand;
import io.tidemark.cli.conductor.ConductorCommand;
import picocli.CommandLine.Command;

/**
 * The {@code tidemark} of the container image: the services and the commands operators run beside them, without
 * the embedded broker, the emulator and the benchmarks that need them (see docs/deploy.md). Each command here is
 * the same class as in the full jar's tree ({@code io.tidemark.devtools.TidemarkCommand}), so the two cannot
 * drift apart.
 */
@Command(name = "tidemark",
        mixinStandardHelpOptions = true,
        versionProvider = TidemarkVersion.class,
        description = "Tidemark's services (the image's command; the full jar adds quickstart, local-cluster, the "
                + "emulator and the benchmarks).",
        subcommands = {PopulatorCommand.class, ReplayStreamsCommand.class, ObjectProcessorCommand.class,
            BucketProcessorCommand.class, ConductorCommand.class, TopicsCommand.class, StatusCommand.class,
            DlqCommand.class, ConfigCommand.class, RulesCommand.class, PauseCommand.class, ResumeCommand.class,
            BucketCommand.class, AuditCommand.class, LifecycleCommand.class})
public final class ServicesCommand extends CommandGroup {
}
