package io.tidemark.devtools.campaign;

import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;

/** Prints, every second from a due instant on, how far each stage of the pipeline has got. */
final class PipelineProgress {

    private final PopulatorService populator;
    private final ReplayStreamsService replay;
    private final ObjectProcessorService objects;
    private final DeleteWatcher deletes;

    PipelineProgress(PopulatorService populator, ReplayStreamsService replay, ObjectProcessorService objects,
                     DeleteWatcher deletes) {
        this.populator = populator;
        this.replay = replay;
        this.objects = objects;
        this.deletes = deletes;
    }

    /** Starts printing; interrupt the thread to stop. */
    Thread start(PrintWriter out, Instant due) {
        Thread t = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(1_000);
                    out.printf(Locale.ROOT, "  t%+.0fs: populator published %d | replay armed %d, fired %d, "
                                    + "pending %d | object processor done %d | deletes seen %d%n",
                            Duration.between(due, Instant.now()).toMillis() / 1e3, populator.metrics().published(),
                            replay.metrics().total("tidemark.replay.timers.armed", "expiration_days"),
                            replay.metrics().total("tidemark.replay.timers.fired", "expiration_days"),
                            replay.metrics().pending(), objects.metrics().finishedCount("DONE"), deletes.seen());
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }
}
