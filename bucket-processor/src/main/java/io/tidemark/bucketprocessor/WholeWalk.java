package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketTask;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import java.time.Clock;
import java.time.Duration;

/**
 * Walks one bucket from start to end in this process, page by page exactly as the bucket processor does but
 * without Kafka, and adds up what the pages did. For the benchmark (in devtools), which sets it against a raw
 * listing; it stays here because it is the one door to the page walker's package-private parts.
 */
public final class WholeWalk {

    /** What a whole walk did. */
    public record Totals(long pages, long handled, long listed, long relisted, long listCalls, long lookupCalls,
                         long tasks, long rearms) {
    }

    private WholeWalk() {
    }

    public static Totals run(FilerClient filer, String bucketsDirectory, String bucket, BucketTask.Mode mode,
                             int shardBits, int pageSize, RuleReader reader, Clock clock) {
        // The filer's clock read afresh for every page: a walk of an emulator whose clock a bench moves stays right.
        FilerClock filerTime = FilerClock.of(filer, clock, Duration.ZERO);
        PageWorker worker = new PageWorker(EntryLister.of(filer), bucketsDirectory, ShardFunction.withBits(shardBits),
                pageSize, reader, filerTime::nowBlocking);
        BucketTask task = new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                new BucketTask.Details("bench-" + clock.millis(), mode, "", null));
        long pages = 0;
        long handled = 0;
        long listed = 0;
        long relisted = 0;
        long listCalls = 0;
        long lookupCalls = 0;
        long tasks = 0;
        long rearms = 0;
        while (true) {
            PageWorker.PageResult page = worker.page(task);
            PageOutput out = page.output();
            pages++;
            handled += out.handled;
            listed += out.listed;
            relisted += out.relisted;
            listCalls += out.listCalls;
            lookupCalls += out.lookupCalls;
            tasks += out.tasks.size();
            rearms += out.rearms.size();
            if (page.next().isEmpty()) {
                return new Totals(pages, handled, listed, relisted, listCalls, lookupCalls, tasks, rearms);
            }
            task = page.next().get();
        }
    }
}
