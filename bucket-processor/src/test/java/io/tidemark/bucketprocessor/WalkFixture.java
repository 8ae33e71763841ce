package io.tidemark.bucketprocessor;

import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketTask;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** An emulator, a filer client that counts what it lists, and a page worker walking buckets to their end. */
final class WalkFixture implements AutoCloseable {

    static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");

    final MutableClock clock = new MutableClock(T0);
    final FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), clock).start();
    final S3Gateway s3 = emulator.s3();
    final FilerClient filer = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT, Duration.ofSeconds(30));
    final CountingLister lister = new CountingLister(EntryLister.of(filer));

    /** Every page of one walk, in order. */
    record Walk(List<PageWorker.PageResult> pages) {

        List<io.tidemark.messages.ObjectTask> tasks() {
            return pages.stream().flatMap(p -> p.output().tasks.stream()).map(PageOutput.Addressed::value).toList();
        }

        List<io.tidemark.messages.pb.MetaLogProto.MetaLogRecord> rearms() {
            return pages.stream().flatMap(p -> p.output().rearms.stream()).map(PageOutput.Addressed::value).toList();
        }

        long sum(java.util.function.ToLongFunction<PageOutput> figure) {
            return pages.stream().mapToLong(p -> figure.applyAsLong(p.output())).sum();
        }

        String endReason() {
            return pages.get(pages.size() - 1).endReason();
        }
    }

    /** Exact due times; a day lasts a day unless a test shortens it. */
    LifecycleCalendar calendar = LifecycleCalendar.of(io.tidemark.lifecycle.engine.DuePolicy.EXACT, Duration.ofDays(1));
    ValidationMode mode = ValidationMode.AWS;

    PageWorker worker(int pageSize) {
        return new PageWorker(lister, "/buckets", ShardFunction.withBits(2), pageSize,
                new RuleReader(mode, calendar), clock::instant);
    }

    Walk walk(String bucket, BucketTask.Mode mode, int pageSize) {
        PageWorker worker = worker(pageSize);
        BucketTask task = new BucketTask(BucketTask.PROCESS_BUCKET, new BucketTask.Target(bucket),
                new BucketTask.Details("scan-1", mode, "", null));
        List<PageWorker.PageResult> pages = new ArrayList<>();
        while (true) {
            PageWorker.PageResult page = worker.page(task);
            pages.add(page);
            if (page.next().isEmpty()) {
                return new Walk(pages);
            }
            if (pages.size() > 1_000_000) {
                throw new AssertionError("the walk does not end");
            }
            task = page.next().get();
        }
    }

    @Override
    public void close() {
        filer.close();
        emulator.close();
    }

    /** Counts ListEntries calls and the entries they return. */
    static final class CountingLister implements EntryLister {
        private final EntryLister inner;
        long listCalls;
        long listed;
        long lookups;

        CountingLister(EntryLister inner) {
            this.inner = inner;
        }

        @Override
        public List<Entry> list(String directory, String prefix, String startAfter, int limit) {
            List<Entry> page = inner.list(directory, prefix, startAfter, limit);
            listCalls++;
            listed += page.size();
            return page;
        }

        @Override
        public Optional<Entry> lookup(String directory, String name) {
            lookups++;
            return inner.lookup(directory, name);
        }
    }
}
