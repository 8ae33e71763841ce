package io.tidemark.bucketprocessor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/** The bucket processor's meters, and the figures of its status line. */
public final class BucketProcessorMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> pages = new ConcurrentHashMap<>();
    private final Map<String, Counter> emitted = new ConcurrentHashMap<>();
    private final Map<String, Counter> walksEnded = new ConcurrentHashMap<>();
    private final Map<String, Counter> failures = new ConcurrentHashMap<>();
    private final Map<String, Counter> walksFailed = new ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.LongAdder walksFailedTotal = new java.util.concurrent.atomic.LongAdder();
    private final Map<String, AtomicLong> walkSeconds = new ConcurrentHashMap<>();
    private final Counter listed;
    private final Counter relisted;
    private final Counter listCalls;
    private final Counter lookupCalls;
    private final Counter rearms;
    private final Counter locked;
    private final Counter anomalies;
    private final Counter nullMarkers;
    private final Counter unreadable;
    private final Counter transactionsCut;
    private final Timer pageLatency;
    private final LongAdder pagesDone = new LongAdder();
    private final LongAdder entriesDone = new LongAdder();
    private final LongAdder tasksDone = new LongAdder();
    private final LongAdder walksDone = new LongAdder();

    public BucketProcessorMetrics(MeterRegistry registry) {
        this.registry = registry;
        listed = Counter.builder("tidemark.bucket.processor.entries.listed")
                .description("Entries the filer returned to walks").register(registry);
        relisted = Counter.builder("tidemark.bucket.processor.entries.relisted")
                .description("Entries a page listed but left to the next page, which lists them again")
                .register(registry);
        listCalls = Counter.builder("tidemark.bucket.processor.list.calls")
                .description("ListEntries calls made by walks").register(registry);
        lookupCalls = Counter.builder("tidemark.bucket.processor.lookup.calls")
                .description("LookupDirectoryEntry calls made by walks").register(registry);
        rearms = Counter.builder("tidemark.bucket.processor.rearms")
                .description("Re-arm records written by recovery walks").register(registry);
        locked = Counter.builder("tidemark.bucket.processor.locked")
                .description("Due entries under object lock, for which no task was sent").register(registry);
        anomalies = Counter.builder("tidemark.bucket.processor.layout.anomalies")
                .description("Entries that do not fit the S3 layout, stepped over").register(registry);
        nullMarkers = Counter.builder("tidemark.bucket.processor.null.delete.markers")
                .description("Null delete markers met: versions no lifecycle request can remove, so none is sent")
                .register(registry);
        transactionsCut = Counter.builder("tidemark.bucket.processor.transactions.cut")
                .description("Transactions that reached their time bound and left pages to the next one")
                .register(registry);
        unreadable = Counter.builder("tidemark.bucket.processor.tasks.unreadable")
                .description("bucket-tasks records that could not be read, logged and skipped").register(registry);
        pageLatency = Timer.builder("tidemark.bucket.processor.page.duration").publishPercentileHistogram()
                .description("Time to list and evaluate one page").register(registry);
    }

    void page(String mode, PageOutput out, Duration took) {
        counter(pages, "tidemark.bucket.processor.pages", "Pages walked, by walk mode", "mode", mode).increment();
        listed.increment(out.listed);
        relisted.increment(out.relisted);
        listCalls.increment(out.listCalls);
        lookupCalls.increment(out.lookupCalls);
        rearms.increment(out.rearms.size());
        locked.increment(out.locked);
        anomalies.increment(out.anomalies);
        nullMarkers.increment(out.nullMarkers);
        out.tasksByKind.forEach((kind, n) -> counter(emitted, "tidemark.bucket.processor.tasks.emitted",
                "Object tasks emitted, by kind", "kind", kind).increment(n));
        pageLatency.record(took);
        pagesDone.increment();
        entriesDone.add(out.handled);
        tasksDone.add(out.tasks.size());
    }

    /** A walk's last page committed: how it ended and how long it took. */
    void walkEnded(String bucket, String mode, String reason, Duration took) {
        String key = mode + "/" + reason;
        walksEnded.computeIfAbsent(key, k -> Counter.builder("tidemark.bucket.processor.walks.ended")
                .tag("mode", mode).tag("reason", reason).description("Walks that ended, by mode and reason")
                .register(registry)).increment();
        if (took != null) {
            walkSeconds.computeIfAbsent(bucket, b -> {
                AtomicLong holder = new AtomicLong();
                Gauge.builder("tidemark.bucket.processor.walk.duration.seconds", holder, AtomicLong::get)
                        .tag("bucket", b).description("How long the bucket's latest finished walk took")
                        .register(registry);
                return holder;
            }).set(took.toSeconds());
        }
        walksDone.increment();
    }

    void unreadable() {
        unreadable.increment();
    }

    /** A batch of pages failed and is tried again: {@code filer} or {@code kafka}. */
    /** A walk stopped on a page it could not walk: not finished; the conductor resumes it. */
    void walkFailed(String bucket, String mode) {
        counter(walksFailed, "tidemark.bucket.processor.walks.failed", "Walks stopped on a page that could not be "
                + "walked (resumed from it by the next conductor pass), by bucket", "bucket", bucket).increment();
        walksFailedTotal.increment();
    }

    public long walksFailed() {
        return walksFailedTotal.sum();
    }

    /** A transaction that reached its time bound and left pages of its batch to the next one. */
    void transactionCut() {
        transactionsCut.increment();
    }

    void failure(String where) {
        counter(failures, "tidemark.bucket.processor.page.failures", "Batches of pages that failed and were tried "
                + "again, by where", "where", where).increment();
    }

    public long pagesDone() {
        return pagesDone.sum();
    }

    public long entriesDone() {
        return entriesDone.sum();
    }

    public long tasksDone() {
        return tasksDone.sum();
    }

    public long walksDone() {
        return walksDone.sum();
    }

    String statusLine() {
        return "pages=" + pagesDone.sum() + " entries=" + entriesDone.sum() + " tasks=" + tasksDone.sum()
                + " walks-ended=" + walksDone.sum() + " walks-failed=" + walksFailedTotal.sum()
                + " relisted=" + (long) relisted.count()
                + " unreadable=" + (long) unreadable.count();
    }

    private Counter counter(Map<String, Counter> cache, String name, String description, String tag, String value) {
        return cache.computeIfAbsent(value, v -> Counter.builder(name).tag(tag, v).description(description)
                .register(registry));
    }
}
