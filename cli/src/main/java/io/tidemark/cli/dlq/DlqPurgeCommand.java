package io.tidemark.cli.dlq;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ExitCodes;
import io.tidemark.cli.InstantArgument;
import io.tidemark.objectprocessor.DeadLetters;
import io.tidemark.objectprocessor.DeadLetters.Parked;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "purge", mixinStandardHelpOptions = true,
        description = {"Gives parked tasks up for good: removes them from the dead-letter topic (a tombstone each; the "
                + "topic is compacted, so nothing else ever drops them) and records each in lifecycle-events as PURGED.",
            "Needs at least one of --bucket, --before, --reason, or --all."})
public final class DlqPurgeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Option(names = "--bucket", paramLabel = "B", description = "Only tasks of this bucket.")
    private String bucket;

    @Option(names = "--before", paramLabel = "T",
            description = "Only tasks whose last failure is older than T: an instant (2026-11-01T00:00:00Z) or an age "
                    + "(7d, 12h, 30m).")
    private String before;

    @Option(names = "--reason", paramLabel = "R",
            description = "Only tasks whose last outcome is R (e.g. BLOCKED) or whose reason contains R.")
    private String reason;

    @Option(names = "--all", description = "Every parked task.")
    private boolean all;

    @Option(names = "--dry-run", description = "Show what would be purged; remove nothing.")
    private boolean dryRun;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (!all && bucket == null && before == null && reason == null) {
            spec.commandLine().getErr().println("error: say what to purge: --bucket, --before, --reason, or --all");
            return ExitCodes.USAGE;
        }
        Instant cutoff = before == null ? null : InstantArgument.parse(before, Clock.systemUTC());
        DeadLetters deadLetters = new DeadLetters(options.load());
        List<Parked> chosen = deadLetters.read(Duration.ofSeconds(30)).stream()
                .filter(p -> bucket == null || bucket.equals(p.bucket()))
                .filter(p -> cutoff == null || DeadLetters.parkedBefore(p, cutoff))
                .filter(p -> reason == null || reason.equals(p.letter().outcome())
                        || p.letter().reason() != null && p.letter().reason().contains(reason))
                .toList();
        if (dryRun) {
            chosen.forEach(p -> out.println("would purge\t" + DlqListCommand.line(p)));
            out.println(chosen.size() + " would be purged (dry run)");
            out.flush();
            return ExitCodes.OK;
        }
        deadLetters.purge(chosen, Clock.systemUTC()).forEach(p -> out.println("purged\t" + DlqListCommand.line(p)));
        out.println(chosen.size() + " purged");
        out.flush();
        return ExitCodes.OK;
    }
}
