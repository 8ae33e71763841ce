package io.tidemark.cli.control;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.zookeeper.Controls;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "resume", mixinStandardHelpOptions = true,
        description = {"Resumes lifecycle for one bucket, or for the whole cluster, after tidemark pause: the tasks "
                + "the object processors held (a paused cluster) go on at once; a bucket paused on its own gets a "
                + "walk from them, which carries out what came due while it was paused.",
            "Resuming the cluster leaves buckets paused on their own paused."})
public final class ResumeCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Option(names = "--bucket", paramLabel = "B", description = "Only this bucket (default: the whole cluster).")
    private String bucket;

    @Override
    public Integer call() throws Exception {
        String what = bucket == null ? "the cluster" : "bucket " + bucket;
        return ControlSession.run(spec, options.load(), "resume", (session, out) -> {
            boolean changed = session.controls().resume(Optional.ofNullable(bucket));
            out.println(changed ? what + " resumed" : what + " was not paused");
            Controls now = session.controls().read();
            now.owedWalksByName().keySet().stream().filter(now::acting).forEach(b -> out.println("bucket " + b
                    + ": the object processors now send the walk it is owed for the tasks it deferred"));
            if (bucket == null && !now.paused().isEmpty()) {
                out.println("still paused on their own: " + String.join(", ", now.pausedByName().keySet()));
            } else if (bucket != null && now.clusterPause().isPresent()) {
                out.println("note: the whole cluster is still paused (tidemark resume)");
            }
        });
    }
}
