package io.tidemark.cli.control;

import io.tidemark.cli.ConfigOptions;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "pause", mixinStandardHelpOptions = true,
        description = {"Pauses lifecycle for one bucket, or for the whole cluster. The whole cluster: the object "
                + "processors hold every task (nothing deleted, nothing dropped; the held tasks show as lag). One "
                + "bucket: they record its tasks as PAUSED and owe it a walk, sent on its resume, which carries out "
                + "what came due meanwhile. Either way the conductor seeds no walk for it; calls already sent "
                + "complete.",
            "Undo with tidemark resume."})
public final class PauseCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Option(names = "--bucket", paramLabel = "B", description = "Only this bucket (default: the whole cluster).")
    private String bucket;

    @Option(names = "--reason", paramLabel = "TEXT", description = "Why, shown by tidemark status.")
    private String reason;

    @Override
    public Integer call() throws Exception {
        String what = bucket == null ? "the cluster" : "bucket " + bucket;
        return ControlSession.run(spec, options.load(), "pause", (session, out) -> {
            boolean changed = session.controls().pause(Optional.ofNullable(bucket),
                    ControlSession.flag(Clock.systemUTC(), reason));
            out.println(changed ? what + " paused" : what + " was already paused");
            if (bucket != null && !session.registered(bucket)) {
                out.println("note: " + bucket + " has no lifecycle rules registered (yet); the pause applies once it "
                        + "does");
            }
        });
    }
}
