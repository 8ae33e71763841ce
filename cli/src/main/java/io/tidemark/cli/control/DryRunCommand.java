package io.tidemark.cli.control;

import io.tidemark.cli.ConfigOptions;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "dry-run", mixinStandardHelpOptions = true,
        description = {"Puts a bucket in dry run, or takes it out. In dry run every stage runs as usual, but the object "
                + "processors record each action in lifecycle-events as DRY_RUN (read them with tidemark audit) "
                + "instead of calling the gateway.",
            "Out of dry run, the object processors send a walk of the whole bucket, which carries out what came due "
                + "meanwhile (the actions only recorded) and re-arms what is still to come: nothing is lost."})
public final class DryRunCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Parameters(index = "0", paramLabel = "BUCKET", description = "The bucket.")
    private String bucket;

    @Parameters(index = "1", paramLabel = "on|off", description = "on: record only; off: act again.")
    private Switch state;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown by tidemark status.")
    private String reason;

    enum Switch { on, off }

    @Override
    public Integer call() throws Exception {
        boolean on = state == Switch.on;
        return ControlSession.run(spec, options.load(), "bucket dry-run", (session, out) -> {
            boolean changed = session.controls().dryRun(bucket, on, ControlSession.flag(Clock.systemUTC(), reason));
            out.println("bucket " + bucket + (on ? (changed ? " is in dry run" : " was already in dry run")
                    : (changed ? " is out of dry run" : " was not in dry run")));
            if (on && !session.registered(bucket)) {
                out.println("note: " + bucket + " has no lifecycle rules registered (yet)");
            }
            if (!on && session.controls().read().owedWalks().containsKey(bucket)) {
                out.println("the object processors now send the walk it is owed: what it only recorded during the dry "
                        + "run is carried out");
            }
        });
    }
}
