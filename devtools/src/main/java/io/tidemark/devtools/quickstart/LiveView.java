package io.tidemark.devtools.quickstart;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.topics.ConsumerGroups;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;

/**
 * The quickstart's console once it is READY: one line of figures per refresh, and the demo's new logs written every
 * lifecycle day. (The launcher script also reads this class's name in the JVM's list of loaded classes, as the sign
 * that a run got this far.)
 */
final class LiveView {

    private final PrintWriter out;
    private final TidemarkConfig config;
    private final ReplayStreamsService replay;
    private final ObjectProcessorService objects;
    private final DemoBucket demo;
    private final Duration refresh;
    private final Duration day;

    LiveView(PrintWriter out, TidemarkConfig config, ReplayStreamsService replay, ObjectProcessorService objects,
             DemoBucket demo, Duration refresh, Duration day) {
        this.out = out;
        this.config = config;
        this.replay = replay;
        this.objects = objects;
        this.demo = demo;
        this.refresh = refresh;
        this.day = day;
    }

    /** Runs until {@code stopping} opens, or for {@code exitAfterSeconds} when that is above 0 (tests). */
    void run(CountDownLatch stopping, long exitAfterSeconds) throws Exception {
        TopicRegistry topics = TopicRegistry.from(config);
        long started = System.nanoTime();
        long lastWrite = System.nanoTime();
        try (Admin admin = Admin.create(config.adminProperties())) {
            GroupLag lag = new GroupLag(admin, config.consumerProperties());
            while (!stopping.await(refresh.toMillis(), TimeUnit.MILLISECONDS)) {
                if (demo != null && System.nanoTime() - lastWrite >= day.toNanos()) {
                    demo.writeLogs(5);
                    lastWrite = System.nanoTime();
                }
                long backlog = 0;
                for (ConsumerGroups.Group group : ConsumerGroups.from(config).withInputs(topics)) {
                    backlog += lag.backlog(group.id(), group.topics());
                }
                out.printf(Locale.ROOT, "%s | timers pending %d | deletes done %d (noop %d, locked %d, parked %d) "
                                + "| backlog %d%n",
                        demo == null ? "no demo" : "demo: written " + demo.written() + ", in bucket " + demo.objects(),
                        replay.metrics().pending(), objects.metrics().finishedCount("DONE"),
                        objects.metrics().finishedCount("NOOP_RESOLVED"),
                        objects.metrics().finishedCount("SKIPPED_OBJECT_LOCK"), objects.metrics().parkedCount(),
                        backlog);
                out.flush();
                if (exitAfterSeconds > 0 && System.nanoTime() - started > TimeUnit.SECONDS.toNanos(exitAfterSeconds)) {
                    return;
                }
            }
        }
    }
}
