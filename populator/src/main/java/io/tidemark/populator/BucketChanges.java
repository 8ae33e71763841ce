package io.tidemark.populator;

import io.tidemark.messages.BucketConfig;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.zookeeper.RegistryEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buckets' side of a term: each bucket entry applied as its configuration record and recovery task in the open
 * transaction, with its registry write under way and waited for just before the commit; and the registry made to say
 * what the committed configurations say.
 */
final class BucketChanges {

    private static final Logger log = LoggerFactory.getLogger(BucketChanges.class);

    private final TransactionalPublisher publisher;
    private final BucketConfigTracker tracker;
    private final BucketRegistry registry;
    /**
     * The open transaction's registry writes, under way as its buckets are applied and waited for before its
     * commit. Each bucket is applied at most once per transaction, which is what a batch asks.
     */
    private final BucketRegistry.Batch registryWrites;
    private final FilerClient filer;
    private final String bucketsDirectory;
    private final PopulatorMetrics metrics;

    BucketChanges(TransactionalPublisher publisher, BucketConfigTracker tracker, BucketRegistry registry,
                  FilerClient filer, String bucketsDirectory, PopulatorMetrics metrics) {
        this.publisher = publisher;
        this.tracker = tracker;
        this.registry = registry;
        this.registryWrites = registry.batch();
        this.filer = filer;
        this.bucketsDirectory = bucketsDirectory;
        this.metrics = metrics;
    }

    /** The buckets with a committed or applied lifecycle configuration, valid or not. */
    Set<String> known() {
        return tracker.buckets();
    }

    /** How many of the known buckets have a configuration, and how many of those are invalid. */
    int configured() {
        return tracker.size();
    }

    int invalid() {
        return tracker.invalidCount();
    }

    /**
     * Makes the registry say what the committed configs say, in one pipelined read and one pipelined write: heals
     * a registry lost or edited by hand, or a late write that slipped in before fencing. False: leadership is lost.
     */
    boolean reconcileRegistry() throws Exception {
        Map<String, Optional<RegistryEntry>> nodes = registry.readAll();
        List<BucketConfigChange> repairs = new ArrayList<>();
        for (String bucket : nodes.keySet()) {
            if (tracker.current(bucket).isEmpty()) {
                log.info("registry: removing bucket {}, which has no committed lifecycle configuration", bucket);
                repairs.add(new BucketConfigChange(bucket, null, false));
            }
        }
        for (String bucket : tracker.buckets()) {
            BucketConfig config = tracker.current(bucket).orElseThrow();
            Optional<RegistryEntry> entry = tracker.entry(bucket);
            if (!entry.equals(nodes.get(bucket))) {
                repairs.add(new BucketConfigChange(bucket, config, entry.orElseThrow(), false));
            }
        }
        for (BucketConfigChange repair : repairs) {
            registryWrites.add(repair);
        }
        boolean written = writeRegistry();
        if (written && !repairs.isEmpty()) {
            metrics.registryRepairs(repairs.size());
            log.info("registry: {} of {} nodes repaired to match the published configurations", repairs.size(),
                    nodes.size());
        }
        metrics.registry(tracker.size(), tracker.invalidCount());
        return written;
    }

    /**
     * Writes the open transaction's registry changes. A bucket name ZooKeeper refuses is counted and logged, and
     * the populator goes on. False, with nothing more written: the leader node is gone, the term must end.
     */
    boolean writeRegistry() throws Exception {
        if (registryWrites.isEmpty()) {
            return true;
        }
        try {
            for (String refused : registryWrites.finish()) {
                metrics.registryRejection();
                log.error("bucket {}: ZooKeeper refuses the name as a path, so the bucket is not registered and "
                        + "will not be walked (its events and configuration are still published)", refused);
            }
            return true;
        } catch (LeadershipLostException e) {
            log.warn("{}; ending the term without committing", e.getMessage());
            return false;
        }
    }

    /**
     * The bucket's entry now (empty inside: the bucket is gone), or nothing when the filer refuses the lookup with
     * an error of its own (a refusal, or a fault such as UNKNOWN that would fail every batch again): then the
     * bucket's configuration stays as it was until its next event, with an error log and a count, instead of failing
     * every batch for ever. Transient errors still fail the batch, to be retried.
     */
    Optional<Optional<Entry>> lookUp(String bucket) {
        try {
            return Optional.of(filer.lookup(bucketsDirectory, bucket));
        } catch (SeaweedCallException e) {
            if (e.kind() == FailureKind.TRANSIENT) {
                throw e;
            }
            metrics.bucketLookupFailed();
            log.error("bucket {}: the filer refuses to look it up ({}); its lifecycle configuration is left as it "
                    + "was until its next event", bucket, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Applies one bucket entry (null: the bucket is gone): its records, and its registry write queued for just
     * before the commit. Returns whether a recovery walk of the bucket was asked for.
     *
     * @param generationTsNs the ts_ns of the bucket's last event in the batch (the enumeration's start at a cold
     *                       start), which names a recovery walk
     * @param enumerating    part of an enumeration of every bucket, which sums its buckets up per chunk: a line for
     *                       each of thousands would cost more than the work
     */
    boolean apply(String bucket, Entry entry, long generationTsNs, boolean enumerating) throws Exception {
        Optional<BucketConfigChange> change = tracker.apply(bucket, entry);
        if (change.isEmpty()) {
            return false;
        }
        BucketConfigChange c = change.get();
        registryWrites.add(c);
        publisher.bucketConfig(bucket, c.config());
        if (c.recovery()) {
            publisher.bucketTask(BucketRegistry.recoveryTask(c, generationTsNs));
        }
        if (!c.removed() && c.config().invalidCode() != null) {
            metrics.invalidConfigSeen();
        }
        if (enumerating ? log.isDebugEnabled() : log.isInfoEnabled()) {
            String what = c.removed() ? "lifecycle configuration removed"
                    : c.config().invalidCode() != null ? "invalid lifecycle configuration ("
                    + c.config().invalidCode() + ")" : "lifecycle configuration "
                    + c.config().ruleSetHash().substring(0, 16) + (c.recovery() ? ", recovery walk requested" : "");
            if (enumerating) {
                log.debug("bucket {}: {}", bucket, what);
            } else {
                log.info("bucket {}: {}", bucket, what);
            }
        }
        metrics.registry(tracker.size(), tracker.invalidCount());
        return c.recovery();
    }

    /** A recovery walk of a bucket whose configuration did not change, if it has valid lifecycle rules. */
    void recoveryWalk(String bucket, long generationTsNs) throws Exception {
        Optional<BucketConfig> config = tracker.current(bucket).filter(c -> c.invalidCode() == null);
        if (config.isPresent()) {
            publisher.bucketTask(BucketRegistry.recoveryTask(new BucketConfigChange(bucket, config.get(), true),
                    generationTsNs));
            metrics.gapWalkRequested();
        }
    }
}
