package io.tidemark.cli;

import io.tidemark.cli.campaign.CampaignCommand;
import io.tidemark.cli.campaign.PipelineBenchCommand;
import io.tidemark.cli.config.ConfigCommand;
import io.tidemark.cli.dlq.DlqCommand;
import io.tidemark.cli.emulator.EmulatorCommand;
import io.tidemark.cli.objectprocessor.ObjectProcessorCommand;
import io.tidemark.cli.platform.LocalClusterCommand;
import io.tidemark.cli.platform.TopicsCommand;
import io.tidemark.cli.populator.PopulatorCommand;
import io.tidemark.cli.quickstart.QuickstartCommand;
import io.tidemark.cli.replay.ReplayStreamsCommand;
import io.tidemark.cli.rules.RulesCommand;
import io.tidemark.cli.status.StatusCommand;
import io.tidemark.cli.walker.BucketProcessorCommand;
import io.tidemark.cli.walker.ConductorCommand;
import picocli.CommandLine.Command;

@Command(name = "tidemark",
        mixinStandardHelpOptions = true,
        versionProvider = TidemarkVersion.class,
        description = "Applies S3 bucket lifecycle rules to a SeaweedFS cluster through a Kafka pipeline.",
        subcommands = {QuickstartCommand.class, StatusCommand.class, RulesCommand.class, EmulatorCommand.class, LocalClusterCommand.class, TopicsCommand.class,
            ConfigCommand.class, PopulatorCommand.class, ReplayStreamsCommand.class,
            ObjectProcessorCommand.class, ConductorCommand.class, BucketProcessorCommand.class, DlqCommand.class, CampaignCommand.class, PipelineBenchCommand.class})
public final class TidemarkCommand extends CommandGroup {
}
