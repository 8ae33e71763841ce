package io.tidemark.objectprocessor;

import io.tidemark.localcluster.ChildService;
import java.time.Clock;

/** An object processor in its own JVM, as {@code tidemark object-processor} runs it, for kill -9 tests. */
public final class ObjectProcessorChildMain {

    private ObjectProcessorChildMain() {
    }

    public static void main(String[] args) throws Exception {
        ChildService.run("object-processor", args, (config, registry) -> new ObjectProcessorService(config,
                Clock.systemUTC(), registry));
    }
}
