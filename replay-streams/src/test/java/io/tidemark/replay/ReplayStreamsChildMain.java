package io.tidemark.replay;

import io.tidemark.localcluster.ChildService;
import java.time.Clock;

/** A replay-streams instance in its own JVM, as {@code tidemark replay-streams} runs it, for kill -9 tests. */
public final class ReplayStreamsChildMain {

    private ReplayStreamsChildMain() {
    }

    public static void main(String[] args) throws Exception {
        ChildService.run("replay-streams", args,
                (config, meters) -> new ReplayStreamsService(config, Clock.systemUTC(), meters));
    }
}
