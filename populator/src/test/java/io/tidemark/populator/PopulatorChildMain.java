package io.tidemark.populator;

import io.tidemark.localcluster.ChildService;
import java.time.Clock;

/**
 * A populator in its own JVM, run exactly as {@code tidemark populator} runs it, so tests can kill it with
 * SIGKILL. Arguments are {@code key=value} settings; prints {@code READY <management port>} once it runs.
 */
public final class PopulatorChildMain {

    private PopulatorChildMain() {
    }

    public static void main(String[] args) throws Exception {
        ChildService.run("populator", args, (config, registry) -> new PopulatorService(config, Clock.systemUTC(),
                registry));
    }
}
