package io.tidemark.bucketprocessor;

import io.tidemark.localcluster.ChildService;
import java.time.Clock;

/** A bucket processor in its own JVM, as {@code tidemark bucket-processor} runs it, for kill -9 tests. */
public final class BucketProcessorChildMain {

    private BucketProcessorChildMain() {
    }

    public static void main(String[] args) throws Exception {
        ChildService.run("bucket-processor", args, (config, registry) -> new BucketProcessorService(config,
                Clock.systemUTC(), registry));
    }
}
