package io.tidemark.bucketprocessor;

import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.seaweed.ShardFunction;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Does one bucket task: reads the bucket's entry for its rules as they are now (an edit between two pages applies
 * from the next page), walks one page, and names the continuation task. A bucket that is gone, or has no valid
 * rules any more, ends its walk cleanly.
 */
final class PageWorker {

    private static final int RULE_CACHE = 256;

    /**
     * @param next      the continuation task, empty when the walk is over
     * @param endReason why the walk ended before listing, else {@code null}; {@code failed} for a page that could not
     *                  be walked
     * @param failure   why it could not, for a failed page
     */
    record PageResult(PageOutput output, Optional<BucketTask> next, String endReason, String failure) {

        PageResult(PageOutput output, Optional<BucketTask> next, String endReason) {
            this(output, next, endReason, null);
        }

        /** Whether the page could not be walked, which stops its walk as failed. */
        boolean failed() {
            return "failed".equals(endReason);
        }
    }

    private final EntryLister lister;
    private final String bucketsDirectory;
    private final BucketWalker walker;
    private final RuleReader reader;
    /** The filer's time: what the due instants of the filer's stamps are compared with (invariant 7). */
    private final Supplier<Instant> filerNow;
    private final Map<String, Compiled> rules = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Compiled> eldest) {
            return size() > RULE_CACHE;
        }
    };

    private record Compiled(String xml, String versioning, Optional<WalkRules> rules) {
    }

    PageWorker(EntryLister lister, String bucketsDirectory, ShardFunction shards, int pageSize,
               RuleReader reader, Supplier<Instant> filerNow) {
        this.lister = lister;
        this.bucketsDirectory = bucketsDirectory;
        this.walker = new BucketWalker(lister, shards, pageSize);
        this.reader = reader;
        this.filerNow = filerNow;
    }

    PageResult page(BucketTask task) {
        String bucket = task.target().bucket();
        var entry = lister.lookup(bucketsDirectory, bucket);
        if (entry.isEmpty()) {
            return new PageResult(new PageOutput(), Optional.empty(), "bucket-gone");
        }
        Optional<String> xml = BucketEntryConfig.lifecycleXml(entry.get());
        Optional<WalkRules> valid = xml.flatMap(document -> compiled(bucket, document,
                BucketEntryConfig.versioning(entry.get())));
        if (valid.isEmpty()) {
            return new PageResult(new PageOutput(), Optional.empty(), "no-valid-rules");
        }
        WalkRules walkRules = valid.get();
        BucketWalker.Result result = walker.walk(bucketsDirectory + "/" + bucket, bucket, task.details(), walkRules,
                filerNow.get());
        result.output().lookupCalls++;
        Optional<BucketTask> next = result.next().map(p -> new BucketTask(task.action(), task.target(),
                new BucketTask.Details(task.details().scanId(), task.details().mode(), task.details().prefix(),
                        p.marker(), p.versions())));
        return new PageResult(result.output(), next, null);
    }

    /**
     * The bucket's rules, parsed, validated and compiled only when its XML or versioning differs from the page
     * before; empty when the XML is not a valid configuration.
     */
    private Optional<WalkRules> compiled(String bucket, String xml, String versioning) {
        Compiled cached = rules.get(bucket);
        if (cached == null || !cached.xml().equals(xml) || !cached.versioning().equals(versioning)) {
            Optional<WalkRules> compiled;
            try {
                compiled = Optional.of(new WalkRules(reader.read(xml), BucketVersioning.parse(versioning)));
            } catch (LifecycleConfigException invalid) {
                compiled = Optional.empty();
            }
            cached = new Compiled(xml, versioning, compiled);
            rules.put(bucket, cached);
        }
        return cached.rules();
    }
}
