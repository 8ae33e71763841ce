package io.tidemark.devtools;

import io.tidemark.cli.CommandGroup;
import io.tidemark.cli.TidemarkVersion;
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
import io.tidemark.devtools.bench.BucketProcessorBenchCommand;
import io.tidemark.devtools.bench.ObjectProcessorBenchCommand;
import io.tidemark.devtools.bench.PopulatorBenchCommand;
import io.tidemark.devtools.bench.ReplayBenchCommand;
import io.tidemark.devtools.bench.WhatIfBenchCommand;
import io.tidemark.devtools.campaign.CampaignCommand;
import io.tidemark.devtools.campaign.PipelineBenchCommand;
import io.tidemark.devtools.check.CheckCommand;
import io.tidemark.devtools.cluster.LocalClusterCommand;
import io.tidemark.devtools.emulator.EmulatorCommand;
import io.tidemark.devtools.quickstart.QuickstartCommand;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine;

@Command(name = "tidemark",
        mixinStandardHelpOptions = true,
        versionProvider = TidemarkVersion.class,
        description = "Applies S3 bucket lifecycle rules to a SeaweedFS cluster through a Kafka pipeline.",
        subcommands = {QuickstartCommand.class, StatusCommand.class, RulesCommand.class, EmulatorCommand.class,
            LocalClusterCommand.class, TopicsCommand.class, ConfigCommand.class, PopulatorCommand.class,
            ReplayStreamsCommand.class, ObjectProcessorCommand.class, ConductorCommand.class,
            BucketProcessorCommand.class, DlqCommand.class, CampaignCommand.class, CheckCommand.class,
            PipelineBenchCommand.class, PauseCommand.class, ResumeCommand.class, BucketCommand.class, AuditCommand.class,
            LifecycleCommand.class})
public final class TidemarkCommand extends CommandGroup {

    /**
     * The full command line: the services' commands gain their {@code bench} subcommands here rather than in their
     * annotations, because the benchmarks need the embedded broker and the emulator, which the services jar of the
     * container image leaves out (see {@link io.tidemark.cli.ServicesCommand}).
     */
    public static CommandLine commandLine() {
        CommandLine commandLine = new CommandLine(new TidemarkCommand());
        Map<String, CommandLine> commands = commandLine.getSubcommands();
        commands.get("populator").addSubcommand(new PopulatorBenchCommand());
        commands.get("replay-streams").addSubcommand(new ReplayBenchCommand());
        commands.get("object-processor").addSubcommand(new ObjectProcessorBenchCommand());
        commands.get("bucket-processor").addSubcommand(new BucketProcessorBenchCommand());
        commands.get("lifecycle").addSubcommand(new WhatIfBenchCommand());
        return commandLine;
    }
}
