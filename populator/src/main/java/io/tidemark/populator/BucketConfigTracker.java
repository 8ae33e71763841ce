package io.tidemark.populator;

import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.messages.BucketEntryConfig.Compiled;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.zookeeper.RegistryEntry;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Remembers each bucket's last known lifecycle configuration and says what a new bucket entry changes. A bucket is
 * in the registry while its entry holds lifecycle XML, valid or not; invalid XML is recorded with S3's error code
 * and never stops anything else. A recovery walk is due when a valid configuration appears (or becomes valid) and
 * when the replay content hash of its rules changes; renaming a rule or changing only versioning does not re-arm
 * timers. Applying the same entry twice changes nothing the second time.
 */
public final class BucketConfigTracker {

    private static final Logger log = LoggerFactory.getLogger(BucketConfigTracker.class);

    private final RuleReader rules;
    private final Map<String, BucketConfig> known = new HashMap<>();
    /**
     * Each known bucket's registry node, kept from the one reading of its rules; a configuration only remembered
     * (from the topic) gets its node when first asked for.
     */
    private final Map<String, RegistryEntry> entries = new HashMap<>();
    /** Kept as configurations come and go: counting on every change made a cold start quadratic. */
    private int invalid;

    public BucketConfigTracker(RuleReader rules) {
        this.rules = rules;
    }

    /** Seeds the last known state, e.g. from the compacted bucket-configs topic after a restart. */
    public void remember(BucketConfig config) {
        put(config);
    }

    private void put(BucketConfig config) {
        forget(config.bucket());
        known.put(config.bucket(), config);
        entries.remove(config.bucket());
        if (config.invalidCode() != null) {
            invalid++;
        }
    }

    private void forget(String bucket) {
        BucketConfig gone = known.remove(bucket);
        entries.remove(bucket);
        if (gone != null && gone.invalidCode() != null) {
            invalid--;
        }
    }

    public Optional<BucketConfig> current(String bucket) {
        return Optional.ofNullable(known.get(bucket));
    }

    /** The registry node a known bucket should have. */
    public Optional<RegistryEntry> entry(String bucket) {
        BucketConfig config = known.get(bucket);
        if (config == null) {
            return Optional.empty();
        }
        return Optional.of(entries.computeIfAbsent(bucket, b -> RegistryEntry.of(config, rules)));
    }

    public int size() {
        return known.size();
    }

    public int invalidCount() {
        return invalid;
    }

    /** Every bucket with a known configuration, valid or not. */
    public Set<String> buckets() {
        return Set.copyOf(known.keySet());
    }

    /**
     * @param entry the bucket's entry as it is now, or {@code null} when the bucket was deleted
     * @return the change, or empty when nothing lifecycle-relevant changed
     */
    public Optional<BucketConfigChange> apply(String bucket, Entry entry) {
        BucketConfig previous = known.get(bucket);
        Optional<Compiled> compiled = entry == null ? Optional.empty() : compile(bucket, entry);
        BucketConfig next = compiled.map(Compiled::config).orElse(null);
        if (Objects.equals(previous, next)) {
            return Optional.empty();
        }
        if (next == null) {
            forget(bucket);
            return Optional.of(new BucketConfigChange(bucket, null, false));
        }
        put(next);
        RegistryEntry node = RegistryEntry.of(next, compiled.get().rules());
        entries.put(bucket, node);
        boolean valid = next.invalidCode() == null;
        boolean wasValid = previous != null && previous.invalidCode() == null;
        // Versioning Enabled again after Suspended: what the gateway could not expire meanwhile (a current version
        // kept in .versions) is expirable again, and no timer is left for it.
        // Compared as written, never parsed: an odd value in a bucket's entry must not stop the populator.
        boolean resumed = wasValid && "Suspended".equalsIgnoreCase(previous.versioning())
                && "Enabled".equalsIgnoreCase(next.versioning());
        boolean recovery = valid && (!wasValid || !previous.ruleSetHash().equals(next.ruleSetHash()) || resumed);
        if (!valid) {
            log.warn("bucket {}: lifecycle configuration is invalid and is ignored: {}: {}", bucket, next.invalidCode(),
                    next.invalidMessage());
        }
        return Optional.of(new BucketConfigChange(bucket, next, node, recovery));
    }

    /** The configuration an entry describes and its rules, or empty when it has no lifecycle XML. */
    Optional<Compiled> compile(String bucket, Entry entry) {
        return BucketEntryConfig.compile(bucket, entry, rules);
    }
}
