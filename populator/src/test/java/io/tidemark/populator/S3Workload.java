package io.tidemark.populator;

import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A steady mix of S3 operations on the emulator (writes, overwrites, tags, deletes, versions, uploads, one rule
 * change), run on its own thread while populators come and go.
 */
final class S3Workload implements AutoCloseable {

    private final S3Gateway s3;
    private final Random random;
    private final int operations;
    private final long pauseMicros;
    private final AtomicInteger done = new AtomicInteger();
    private final Thread thread;
    private volatile Throwable failure;
    private volatile boolean stopped;

    S3Workload(S3Gateway s3, long seed, int operations, long pauseMicros) {
        this.s3 = s3;
        this.random = new Random(seed);
        this.operations = operations;
        this.pauseMicros = pauseMicros;
        s3.createBucket("w-plain", false);
        s3.putLifecycle("w-plain", PopulatorServiceTest.RULES);
        s3.createBucket("w-versioned", false);
        s3.setVersioning("w-versioned", BucketVersioning.ENABLED);
        this.thread = new Thread(this::run, "s3-workload");
    }

    S3Workload start() {
        thread.start();
        return this;
    }

    boolean finished() {
        return !thread.isAlive();
    }

    int done() {
        return done.get();
    }

    /** Ends the workload after the operation in progress. */
    void finish() throws InterruptedException {
        stopped = true;
        awaitFinished();
    }

    void awaitFinished() throws InterruptedException {
        thread.join();
        if (failure != null) {
            throw new AssertionError("the workload failed", failure);
        }
    }

    private void run() {
        try {
            for (int i = 0; i < operations && !stopped; i++) {
                operation(i);
                done.incrementAndGet();
                if (pauseMicros > 0) {
                    Thread.sleep(pauseMicros / 1000, (int) (pauseMicros % 1000) * 1000);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void operation(int i) {
        String key = "logs/" + random.nextInt(200);
        switch (random.nextInt(10)) {
            case 0, 1, 2 -> s3.putObject("w-plain", key, random.nextInt(1000), Map.of(), Map.of());
            case 3 -> {
                if (s3.latest("w-plain", key).isPresent()) {
                    s3.putTags("w-plain", key, null, Map.of("n", String.valueOf(i)));
                }
            }
            case 4 -> s3.deleteObject("w-plain", key);
            case 5, 6 -> s3.putObject("w-versioned", key, random.nextInt(1000), Map.of(), Map.of());
            case 7 -> s3.deleteObject("w-versioned", key);
            case 8 -> {
                String upload = s3.createUpload("w-plain", key);
                if (random.nextBoolean()) {
                    s3.abortUpload("w-plain", upload);
                }
            }
            default -> {
                if (i % 500 == 0) {
                    s3.putLifecycle("w-plain", i % 1000 == 0 ? PopulatorServiceTest.OTHER_RULES : PopulatorServiceTest.RULES);
                } else {
                    s3.putObject("w-plain", "other/" + random.nextInt(50), 1, Map.of(), Map.of());
                }
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join();
    }
}
