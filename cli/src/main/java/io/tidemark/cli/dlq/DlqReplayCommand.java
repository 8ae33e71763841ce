package io.tidemark.cli.dlq;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.objectprocessor.DeadLetters;
import io.tidemark.objectprocessor.DeadLetters.Parked;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Sends parked tasks back to object-tasks, unchanged but for origin=dlq-replay, and records each "
                + "in lifecycle-events. The gateway checks every task's identity again, so replaying twice is harmless.",
            "Records that were never readable as tasks cannot be replayed; they are counted."})
public final class DlqReplayCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Option(names = "--bucket", paramLabel = "B", description = "Only tasks of this bucket.")
    private String bucket;

    @Option(names = "--reason", paramLabel = "R",
            description = "Only tasks whose last outcome is R (e.g. RETRY_LATER) or whose reason contains R.")
    private String reason;

    @Option(names = "--dry-run", description = "Show what would be replayed; send nothing.")
    private boolean dryRun;

    @Override
    public Integer call() throws Exception {
        DeadLetters deadLetters = new DeadLetters(options.load());
        List<Parked> chosen = deadLetters.read(Duration.ofSeconds(30)).stream()
                .filter(p -> bucket == null || bucket.equals(p.bucket()))
                .filter(p -> reason == null || reason.equals(p.letter().outcome())
                        || p.letter().reason() != null && p.letter().reason().contains(reason))
                .toList();
        PrintWriter out = spec.commandLine().getOut();
        if (dryRun) {
            chosen.forEach(p -> out.println("would replay\t" + DlqListCommand.line(p)));
            out.println(chosen.size() + " would be replayed (dry run)");
            out.flush();
            return 0;
        }
        DeadLetters.Replay replay = deadLetters.replay(chosen, Clock.systemUTC());
        replay.sent().forEach(p -> out.println("replayed\t" + DlqListCommand.line(p)));
        replay.unreadable().forEach(p -> out.println("cannot replay\t" + DlqListCommand.line(p)));
        out.println(replay.sent().size() + " replayed, " + replay.unreadable().size() + " not readable as tasks");
        out.flush();
        return 0;
    }
}
