package io.tidemark.objectprocessor;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * A bucket's lifecycle rules as they are now, read from the bucket's filer entry and kept for at most
 * {@code maxAge}. The filer entry, not the {@code bucket-configs} topic, because it is what a client's
 * PutBucketLifecycleConfiguration or DeleteBucketLifecycle changes at once, and what the gateway itself acts on: the
 * topic is only as current as the populator, and a stopped populator would leave a removed rule deleting for as long
 * as it stays down. Concurrent asks for one bucket share one lookup; an XML seen before is not compiled again.
 */
final class CurrentRules {

    /**
     * What the bucket says now.
     *
     * @param exists  false when the bucket is gone
     * @param rules   the compiled rules; empty when the bucket has no lifecycle configuration, or an invalid one
     * @param invalid why the configuration present does not count, or null
     */
    record Now(boolean exists, Optional<RuleSet> rules, BucketVersioning versioning, String invalid) {
    }

    private record Cached(long fetchedNanos, CompletableFuture<Now> now) {
    }

    private record CompiledXml(String xml, Optional<RuleSet> rules, String invalid) {
    }

    private final FilerClient filer;
    private final RuleReader reader;
    private final long maxAgeNanos;
    private final LongSupplier nanoTime;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    private final Map<String, CompiledXml> compiled = new ConcurrentHashMap<>();

    CurrentRules(FilerClient filer, RuleReader reader, Duration maxAge, LongSupplier nanoTime) {
        this.filer = filer;
        this.reader = reader;
        this.maxAgeNanos = maxAge.toNanos();
        this.nanoTime = nanoTime;
    }

    /** The bucket's rules no older than the maximum age; fails with the lookup's error, which is not kept. */
    CompletableFuture<Now> of(String bucket) {
        return lookup(bucket, maxAgeNanos);
    }

    /**
     * The bucket's rules read now, whatever is kept: what was kept may predate the very change a task was decided
     * under (a rule added a moment ago), so a task is never dropped on kept rules alone.
     */
    CompletableFuture<Now> fresh(String bucket) {
        return lookup(bucket, 0);
    }

    private CompletableFuture<Now> lookup(String bucket, long maxAge) {
        long now = nanoTime.getAsLong();
        Cached cached = cache.get(bucket);
        if (cached != null && now - cached.fetchedNanos() < maxAge && !cached.now().isCompletedExceptionally()) {
            return cached.now();
        }
        CompletableFuture<Now> fresh = new CompletableFuture<>();
        Cached mine = new Cached(now, fresh);
        Cached won = cache.compute(bucket, (b, old) -> old == cached ? mine : old);
        if (won != mine) {
            return won.now();
        }
        filer.bucketsDirectoryAsync().thenCompose(directory -> filer.lookupAsync(directory, bucket))
                .whenComplete((entry, error) -> {
            if (error != null) {
                cache.remove(bucket, mine);
                fresh.completeExceptionally(error);
            } else {
                fresh.complete(read(bucket, entry));
            }
        });
        return fresh;
    }

    private Now read(String bucket, Optional<Entry> entry) {
        if (entry.isEmpty() || !entry.get().getIsDirectory()) {
            compiled.remove(bucket);
            return new Now(false, Optional.empty(), BucketVersioning.OFF, null);
        }
        BucketVersioning versioning = BucketVersioning.parse(BucketEntryConfig.versioning(entry.get()));
        Optional<String> xml = BucketEntryConfig.lifecycleXml(entry.get());
        if (xml.isEmpty()) {
            compiled.remove(bucket);
            return new Now(true, Optional.empty(), versioning, null);
        }
        CompiledXml known = compiled.get(bucket);
        if (known == null || !known.xml().equals(xml.get())) {
            try {
                known = new CompiledXml(xml.get(), Optional.of(reader.read(xml.get())), null);
            } catch (LifecycleConfigException e) {
                known = new CompiledXml(xml.get(), Optional.empty(), e.code() + ": " + e.getMessage());
            }
            compiled.put(bucket, known);
        }
        return new Now(true, known.rules(), versioning, known.invalid());
    }
}
