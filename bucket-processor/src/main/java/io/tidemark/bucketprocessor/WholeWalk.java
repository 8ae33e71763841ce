package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketTask;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Walks one bucket from start to end in this process, page by page exactly as the bucket processor does but
 * without Kafka. For the benchmark (in devtools), which sets it against a raw listing, and for {@code tidemark
 * lifecycle what-if}, which hands every version and upload to its own {@link WalkVisitor}; it stays here because it
 * is the one door to the page walker's package-private parts.
 */
public final class WholeWalk {

    /** What a whole walk did. */
    public record Totals(long pages, long handled, long listed, long relisted, long listCalls, long lookupCalls,
                         long tasks, long rearms) {
    }

    /**
     * What a visited walk has seen so far, after a page.
     *
     * @param handled     entries evaluated or stepped over (each once)
     * @param listed      entries the filer returned, those listed again by a later page included
     * @param anomalies   entries that do not fit the S3 layout, stepped over
     * @param nullMarkers null delete markers, which no request can remove
     * @param position    where the next page starts (a bucket-relative path), empty once the walk is over
     */
    public record Progress(long pages, long handled, long listed, long listCalls, long lookupCalls, long anomalies,
                           long nullMarkers, String position) {
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

    /**
     * Walks the whole bucket read-only, as the walker's pages do, and hands each object version and upload to
     * {@code visitor}: nothing is sent, nothing is written. The bucket's versioning is the caller's to read (once,
     * from the bucket entry); a walk that acts reads it again for each page.
     *
     * @param afterEachPage told what the walk has seen so far after every page, for a progress line
     * @return what the whole walk saw
     */
    public static Progress visit(EntryLister lister, String bucketsDirectory, String bucket,
                                 BucketVersioning versioning, int pageSize, WalkVisitor visitor,
                                 Consumer<Progress> afterEachPage) {
        BucketWalker walker = new BucketWalker(lister, pageSize);
        String bucketDirectory = bucketsDirectory + "/" + bucket;
        // The walk's mode and scan id are what its decisions put in tasks; a visitor builds none.
        BucketTask.Details task = new BucketTask.Details("what-if", BucketTask.Mode.steady, "", null);
        long pages = 0;
        long handled = 0;
        long listed = 0;
        long listCalls = 0;
        long lookupCalls = 0;
        long anomalies = 0;
        long nullMarkers = 0;
        while (true) {
            // A page's output counts that page only: the walker ends a page on what it has handled.
            PageOutput out = new PageOutput();
            BucketWalker.Result page = walker.walk(bucketDirectory, bucket, task, versioning, visitor, out);
            pages++;
            handled += out.handled;
            listed += out.listed;
            listCalls += out.listCalls;
            lookupCalls += out.lookupCalls;
            anomalies += out.anomalies;
            nullMarkers += out.nullMarkers;
            Optional<BucketWalker.Position> next = page.next();
            Progress progress = new Progress(pages, handled, listed, listCalls, lookupCalls, anomalies, nullMarkers,
                    next.map(BucketWalker.Position::marker).orElse(""));
            afterEachPage.accept(progress);
            if (next.isEmpty()) {
                return progress;
            }
            task = new BucketTask.Details(task.scanId(), task.mode(), "", next.get().marker(), next.get().versions());
        }
    }
}
