package io.tidemark.populator;

import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.FilerLogFiles;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.topics.KafkaFailure;
import io.tidemark.zookeeper.RegistryEntry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One leadership term of the populator: fence earlier leaders, load the committed state, cold-start if there is
 * no checkpoint, then publish the filer meta-log batch by batch — each batch, its bucket configs and recovery
 * tasks and the checkpoint that covers it in one Kafka transaction, the idempotent registry writes before the
 * commit. A term ends when leadership goes (the open transaction is aborted) or with an exception; the next term
 * starts again from what was committed, so an error loses nothing and repeats nothing.
 */
public final class MetaLogTailer {

    private static final Logger log = LoggerFactory.getLogger(MetaLogTailer.class);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final int LIST_PAGE = 1_000;

    private final PopulatorSettings settings;
    private final FilerClient filer;
    private final BucketRegistry registry;
    private final Supplier<TransactionalPublisher> publishers;
    private final Supplier<CommittedState> committedState;
    private final RuleReader rules;
    private final ShardFunction shards;
    private final Clock clock;
    private final PopulatorMetrics metrics;

    public MetaLogTailer(PopulatorSettings settings, FilerClient filer, BucketRegistry registry,
                         Supplier<TransactionalPublisher> publishers, Supplier<CommittedState> committedState,
                         RuleReader rules, ShardFunction shards, Clock clock, PopulatorMetrics metrics) {
        this.settings = settings;
        this.filer = filer;
        this.registry = registry;
        this.publishers = publishers;
        this.committedState = committedState;
        this.rules = rules;
        this.shards = shards;
        this.clock = clock;
        this.metrics = metrics;
    }

    /** Tails while {@code leading} holds, with unfenced registry writes (tests, single instances). */
    public void run(BooleanSupplier leading) throws Exception {
        run(leading, null);
    }

    /**
     * Tails while {@code leading} holds; returns when it stops holding.
     *
     * @param leaderNode this instance's leader latch node: registry writes land only while it exists
     */
    public void run(BooleanSupplier leading, String leaderNode) throws Exception {
        long began = System.nanoTime();
        try (TransactionalPublisher publisher = publishers.get()) {
            long fenced = System.nanoTime();
            // After initTransactions (in the supplier): a previous leader can commit nothing more.
            CommittedState committed = committedState.get();
            log.info("term started: earlier producers fenced in {} ms, committed state read in {} ms",
                    (fenced - began) / 1_000_000, (System.nanoTime() - fenced) / 1_000_000);
            String bucketsDirectory = filer.bucketsDirectory();
            BucketConfigTracker tracker = new BucketConfigTracker(rules);
            committed.configs().values().forEach(tracker::remember);
            lookUpUnreadable(committed.unreadableConfigs(), bucketsDirectory, tracker);
            metrics.foreignMetaLogRecords(committed.foreignMetaLogRecords());
            Term term = new Term(publisher, tracker, registry.fencedBy(leaderNode), bucketsDirectory, leading);
            if (!term.reconcileRegistry()) {
                return;
            }
            Optional<PopulatorCheckpoint> checkpoint = committed.checkpoint().map(c -> resumePoint(c, committed));
            checkpoint.map(PopulatorCheckpoint::gap).ifPresent(metrics::lastGap);
            if (checkpoint.isEmpty()) {
                long startNs = EpochNanos.of(clock.instant());
                long subscribeFrom = Math.max(0, startNs - settings.coldStartOverlap().toNanos());
                log.info("cold start: no checkpoint; enumerating buckets under {}", bucketsDirectory);
                metrics.coldStart();
                checkpoint = term.coldStart(new PopulatorCheckpoint(subscribeFrom, 0, 0, startNs, ""));
            } else if (checkpoint.get().coldStarting()) {
                log.info("{}: resuming the bucket enumeration after \"{}\"", checkpoint.get().walkingAll()
                        ? "meta-log gap" : "cold start", checkpoint.get().coldStartCursor());
                // Away long enough, the logs may have been purged past where the subscription is to begin.
                Optional<PopulatorCheckpoint> gapped = term.lookForGapAfter(checkpoint.get(), checkpoint.get());
                checkpoint = term.coldStart(gapped.orElse(checkpoint.get()));
            } else {
                log.info("resuming after ts_ns {} ({} events at that ts, {} published so far)", checkpoint.get().tsNs(),
                        checkpoint.get().eventsAtTs(), checkpoint.get().published());
                Optional<PopulatorCheckpoint> gapped = term.lookForGapAfter(checkpoint.get(), checkpoint.get());
                if (gapped.isPresent()) {
                    checkpoint = term.coldStart(gapped.get());
                }
            }
            if (checkpoint.isPresent()) {
                term.tail(checkpoint.get());
            }
        }
    }

    /**
     * The checkpoint, or the end of the committed meta-log where that lies further: then a batch's events are
     * readable while its checkpoint is not (a transaction Kafka has decided on some partitions only), and resuming
     * from the checkpoint would publish them twice. The running count is the checkpoint's, without that batch.
     */
    private static PopulatorCheckpoint resumePoint(PopulatorCheckpoint checkpoint, CommittedState committed) {
        return committed.metaLogTail().filter(tail -> tail.beyond(checkpoint)).map(tail -> {
            log.warn("the meta-log holds events past the checkpoint (ts_ns {} #{} beyond ts_ns {}); resuming after them",
                    tail.tsNs(), tail.seqAtTs(), checkpoint.tsNs());
            return new PopulatorCheckpoint(tail.tsNs(), tail.seqAtTs() + 1, checkpoint.published(),
                    checkpoint.coldStartNs(), checkpoint.coldStartCursor(), checkpoint.walkAllNs(), checkpoint.gap());
        }).orElse(checkpoint);
    }

    /**
     * A bucket whose last committed config could not be read is looked up on the filer rather than taken for gone,
     * so the reconcile below keeps (or rewrites) its registry node instead of hiding it from the walker. The topic
     * is corrected by the bucket's next event. A failed lookup fails the term, which is retried: never a guess.
     */
    private void lookUpUnreadable(Set<String> buckets, String bucketsDirectory, BucketConfigTracker tracker) {
        for (String bucket : buckets) {
            metrics.unreadableConfig();
            Optional<BucketConfig> config = filer.lookup(bucketsDirectory, bucket)
                    .flatMap(entry -> BucketEntryConfig.read(bucket, entry, rules));
            log.warn("bucket {}: its committed configuration could not be read; the filer says {}", bucket,
                    config.map(c -> c.invalidCode() == null ? "it has lifecycle rules" : "its rules are invalid")
                            .orElse("it has no lifecycle configuration"));
            config.ifPresent(tracker::remember);
        }
    }

    /** The state of one term: what has been published since the last commit, and where it ends. */
    private final class Term {
        private final TransactionalPublisher publisher;
        private final BucketConfigTracker tracker;
        private final BucketRegistry registry;
        private final EventClassifier classifier;
        private final BooleanSupplier leading;
        private final String bucketsDirectory;
        /**
         * The open transaction's registry writes, under way as its buckets are applied and waited for before its
         * commit. Each bucket is applied at most once per transaction, which is what a batch asks.
         */
        private final BucketRegistry.Batch registryWrites;
        private long lastTsNs;
        private int eventsAtTs;
        private boolean coldStarting;
        /** Where a gap check that could not be decided yet looks from ({@code null}: none pending). */
        private PopulatorCheckpoint gapReference;
        private long nextGapCheckNanos;

        Term(TransactionalPublisher publisher, BucketConfigTracker tracker, BucketRegistry registry,
             String bucketsDirectory, BooleanSupplier leading) {
            this.publisher = publisher;
            this.tracker = tracker;
            this.registry = registry;
            this.registryWrites = registry.batch();
            this.bucketsDirectory = bucketsDirectory;
            this.classifier = new EventClassifier(bucketsDirectory, shards);
            this.leading = leading;
        }

        /**
         * Looks for a gap after {@code reference}: the filer's oldest meta-log file starts after it (an operator
         * purged the logs, or the populator was away longer than the filer keeps them). What changed in between was
         * never published, and only a walk can find it; the checkpoint returned goes on from {@code current} (or from
         * just before the oldest file, if that lies further), records the gap and asks for a recovery walk of every
         * lifecycle bucket. Found once: the returned checkpoint, once committed, no longer lies before the oldest file.
         * Returns empty when there is no gap, and also while the filer cannot tell (it has no log file yet, or does
         * not answer): then the check stays due against {@code reference} and is repeated from {@link #tail} every
         * {@code populator.gap.recheck.ms}, so a log purged whole is judged once the filer logs again.
         */
        Optional<PopulatorCheckpoint> lookForGapAfter(PopulatorCheckpoint reference, PopulatorCheckpoint current) {
            gapReference = reference;
            nextGapCheckNanos = System.nanoTime() + settings.gapRecheck().toNanos();
            Optional<Instant> oldest;
            try {
                oldest = FilerLogFiles.oldest(filer);
            } catch (SeaweedCallException e) {
                if (e.kind() != FailureKind.PERMANENT) {
                    log.debug("meta-log gap check to be tried again: {}", e.getMessage());
                    return Optional.empty();
                }
                log.warn("the filer's meta-log files ({}) cannot be listed, so a gap after ts_ns {} cannot be ruled "
                        + "out: {}", FilerLogFiles.DIRECTORY, reference.tsNs(), e.getMessage());
                gapReference = null;
                return Optional.empty();
            }
            if (oldest.isEmpty()) {
                return Optional.empty();
            }
            gapReference = null;
            if (reference.tsNs() + 1 >= EpochNanos.of(oldest.get())) {
                return Optional.empty();
            }
            PopulatorCheckpoint gapped = current.gapFound(reference.tsNs(), EpochNanos.of(oldest.get()),
                    EpochNanos.of(clock.instant()));
            metrics.gapFound(gapped.gap());
            log.error("meta-log gap: the populator was to resume after {} but the filer's oldest meta-log file starts at "
                            + "{}: whatever changed in between (its log files purged) can never be published, so a "
                            + "recovery walk of every lifecycle bucket is asked for ({} gap(s) since the cold start)",
                    EpochNanos.toInstant(reference.tsNs()), oldest.get(), gapped.gap().count());
            return Optional.of(gapped);
        }

        /** Whether a gap check is due now: one could not be decided yet, and it is time to try again. */
        private boolean gapCheckDue() {
            return gapReference != null && System.nanoTime() - nextGapCheckNanos >= 0;
        }

        /**
         * Lists every bucket, seeds the registry and configs and asks for a recovery walk of each lifecycle bucket, a
         * chunk per transaction, each committed with a checkpoint naming the last bucket listed: no transaction has
         * to outlast the whole listing, and a cold start cut short resumes after its last chunk. Buckets known from
         * committed configs that the listing did not show (this term's) are looked up, so one enumerated before an
         * interruption is kept and one that is gone is removed. The subscription begins where the first chunk said
         * (the listing's start less the overlap), so it covers everything that changes during and after the listing.
         */
        Optional<PopulatorCheckpoint> coldStart(PopulatorCheckpoint from) throws Exception {
            coldStarting = true;
            try {
                return enumerate(from);
            } finally {
                coldStarting = false;
            }
        }

        private Optional<PopulatorCheckpoint> enumerate(PopulatorCheckpoint from) throws Exception {
            long began = System.nanoTime();
            // A gap's enumeration asks for a recovery walk of every lifecycle bucket, changed or not.
            boolean walkAll = from.walkingAll();
            long generation = walkAll ? from.walkAllNs() : from.coldStartNs();
            long chunkTime = settings.coldStartChunkTime().toNanos();
            Set<String> seen = new HashSet<>();
            String cursor = from.coldStartCursor();
            Iterator<Entry> listing = filer.listAll(bucketsDirectory, "", cursor, LIST_PAGE).iterator();
            Iterator<String> unseen = null;
            PopulatorCheckpoint checkpoint = from;
            int enumerated = 0;
            while (true) {
                publisher.begin();
                try {
                    long chunkBegan = System.nanoTime();
                    int inChunk = 0;
                    int chunkBuckets = 0;
                    while (inChunk < settings.coldStartChunk() && System.nanoTime() - chunkBegan < chunkTime) {
                        if (unseen == null && !listing.hasNext()) {
                            unseen = tracker.buckets().stream().filter(b -> !seen.contains(b)).sorted().iterator();
                        }
                        if (unseen == null) {
                            Entry bucket = listing.next();
                            cursor = bucket.getName();
                            inChunk++;
                            if (bucket.getIsDirectory()) {
                                seen.add(bucket.getName());
                                boolean walked = bucketEntry(bucket.getName(), bucket, generation);
                                if (walkAll && !walked) {
                                    recoveryWalk(bucket.getName(), generation);
                                }
                                chunkBuckets++;
                            }
                        } else if (unseen.hasNext()) {
                            String bucket = unseen.next();
                            inChunk++;
                            Optional<Optional<Entry>> now = lookUp(bucket);
                            if (now.isPresent()) {
                                boolean walked = bucketEntry(bucket, now.get().orElse(null), generation);
                                // Up to the cursor, an earlier term of this enumeration asked for its walk already.
                                if (walkAll && !walked && bucket.compareTo(from.coldStartCursor()) > 0) {
                                    recoveryWalk(bucket, generation);
                                }
                            }
                        } else {
                            break;
                        }
                    }
                    boolean complete = unseen != null && !unseen.hasNext();
                    if (!writeRegistry() || !leading.getAsBoolean()) {
                        abort();
                        return Optional.empty();
                    }
                    checkpoint = checkpoint.enumeratedTo(complete ? null : cursor);
                    publisher.commit(checkpoint);
                    enumerated += chunkBuckets;
                    metrics.coldStartBuckets(chunkBuckets);
                    double seconds = Math.max(1e-3, (System.nanoTime() - began) / 1e9);
                    if (complete && walkAll) {
                        log.info("meta-log gap: {} buckets enumerated in this term ({} buckets/s); a recovery walk "
                                + "asked for each of the {} with valid lifecycle rules", enumerated,
                                Math.round(enumerated / seconds), tracker.size() - tracker.invalidCount());
                        return Optional.of(checkpoint);
                    }
                    if (complete) {
                        log.info("cold start: {} buckets enumerated in this term ({} buckets/s), {} with lifecycle "
                                        + "configuration ({} invalid); subscribing from ts_ns {}", enumerated,
                                Math.round(enumerated / seconds), tracker.size(), tracker.invalidCount(),
                                checkpoint.tsNs());
                        return Optional.of(checkpoint);
                    }
                    log.info("cold start: {} buckets enumerated and committed, up to \"{}\" ({} buckets/s)", enumerated,
                            cursor, Math.round(enumerated / seconds));
                } catch (Exception e) {
                    abortAfter(e);
                    throw timedOutOr(e);
                }
            }
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
        private boolean writeRegistry() throws Exception {
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

        /** The error, or what it really means when the transaction had outlived the coordinator's timeout. */
        private Exception timedOutOr(Exception e) {
            Duration open = publisher.openFor();
            if (open.compareTo(settings.transactionTimeout()) < 0 || KafkaFailure.of(e) != KafkaFailure.FENCED) {
                return e;
            }
            metrics.transactionTimedOut();
            return new TransactionTimedOutException(open, settings.transactionTimeout(), e);
        }

        void tail(PopulatorCheckpoint from) throws Exception {
            lastTsNs = from.tsNs();
            eventsAtTs = from.eventsAtTs();
            PopulatorCheckpoint checkpoint = from;
            SubscriptionOptions options = SubscriptionOptions.from("tidemark-populator", bucketsDirectory + "/", 0)
                    .resumingAfter(from.tsNs(), from.eventsAtTs())
                    .withIdleTimeout(settings.streamIdleTimeout())
                    .withBackoff(Duration.ofMillis(100), settings.maxBackoff())
                    // Room for the stream to keep arriving while a transaction commits.
                    .withBufferSize(Math.max(1_024, 2 * settings.batchMaxEvents()));
            List<FilerEvent> batch = new ArrayList<>(Math.min(settings.batchMaxEvents(), 65_536));
            int reconnectsSeen = 0;
            long outOfOrderSeen = 0;
            long reconciled = System.nanoTime();
            try (MetadataSubscription subscription = filer.subscribe(options)) {
                while (leading.getAsBoolean()) {
                    if (System.nanoTime() - reconciled >= settings.registryReconcile().toNanos()) {
                        if (!reconcileRegistry()) {
                            return;
                        }
                        reconciled = System.nanoTime();
                    }
                    // Between batches, so the gap's checkpoint follows the last one committed.
                    if (gapCheckDue()) {
                        Optional<PopulatorCheckpoint> gapped = lookForGapAfter(gapReference, checkpoint);
                        if (gapped.isPresent()) {
                            Optional<PopulatorCheckpoint> walked = coldStart(gapped.get());
                            if (walked.isEmpty()) {
                                return;
                            }
                            checkpoint = walked.get();
                            lastTsNs = checkpoint.tsNs();
                            eventsAtTs = checkpoint.eventsAtTs();
                        }
                    }
                    batch.clear();
                    gather(subscription, batch);
                    int reconnects = subscription.reconnects();
                    metrics.reconnects(reconnects - reconnectsSeen);
                    if (reconnects > reconnectsSeen && gapReference == null) {
                        // The stream resumed from the filer, which may have purged its logs past this point
                        // meanwhile: looked into once this batch is committed, from where the batch began.
                        gapReference = checkpoint;
                        nextGapCheckNanos = System.nanoTime();
                    }
                    reconnectsSeen = reconnects;
                    long outOfOrder = subscription.outOfOrder();
                    metrics.outOfOrder(outOfOrder - outOfOrderSeen);
                    outOfOrderSeen = outOfOrder;
                    if (batch.isEmpty()) {
                        metrics.caughtUp(subscription::silentFor);
                        continue;
                    }
                    metrics.behind();
                    Optional<PopulatorCheckpoint> next = publish(batch, checkpoint);
                    if (next.isEmpty()) {
                        return;
                    }
                    checkpoint = next.get();
                }
            }
        }

        /** Waits for a first event, then takes more until the batch is full or its time is up. */
        private void gather(MetadataSubscription subscription, List<FilerEvent> batch) throws InterruptedException {
            FilerEvent first = subscription.pollEvent(POLL);
            if (first == null) {
                return;
            }
            batch.add(first);
            long deadline = System.nanoTime() + settings.batchMaxWait().toNanos();
            while (batch.size() < settings.batchMaxEvents()) {
                long left = deadline - System.nanoTime();
                FilerEvent next = subscription.pollEvent(Duration.ofNanos(Math.max(0, left)));
                if (next == null) {
                    return;
                }
                batch.add(next);
            }
        }

        private Optional<PopulatorCheckpoint> publish(List<FilerEvent> batch,
                                                      PopulatorCheckpoint checkpoint) throws Exception {
            Map<EventKind, Integer> kinds = new EnumMap<>(EventKind.class);
            Map<String, Long> bucketsChanged = new LinkedHashMap<>();
            publisher.begin();
            try {
                for (FilerEvent filerEvent : batch) {
                    SubscribeMetadataResponse event = filerEvent.response();
                    long ts = event.getTsNs();
                    int seq = ts == lastTsNs ? eventsAtTs : 0;
                    lastTsNs = ts;
                    eventsAtTs = seq + 1;
                    MetaLogRecord record = classifier.classify(event, seq);
                    metrics.read(record.getKind());
                    kinds.merge(record.getKind(), 1, Integer::sum);
                    // The filer's bytes still describe the event unless chunk lists were cut from it.
                    boolean untouched = record.getEvent() == event.getEventNotification();
                    TransactionalPublisher.Sent sent = publisher.metaLog(record,
                            untouched ? filerEvent.encodedNotification() : null);
                    if (sent != TransactionalPublisher.Sent.WHOLE) {
                        oversized(record, sent);
                    }
                    if (!record.getBucket().isEmpty() && record.getLogicalKey().isEmpty()) {
                        bucketsChanged.put(record.getBucket(), ts);
                    }
                }
                for (Map.Entry<String, Long> changed : bucketsChanged.entrySet()) {
                    // The bucket as it is now, not as the events show it: a replayed event (after a crash or in
                    // the cold-start overlap) must never set an older configuration over a newer one.
                    Optional<Optional<Entry>> now = lookUp(changed.getKey());
                    if (now.isPresent()) {
                        bucketEntry(changed.getKey(), now.get().orElse(null), changed.getValue());
                    }
                }
                if (!writeRegistry() || !leading.getAsBoolean()) {
                    abort();
                    return Optional.empty();
                }
                PopulatorCheckpoint next = checkpoint.advancedTo(lastTsNs, eventsAtTs, batch.size());
                publisher.commit(next);
                metrics.committed(kinds, batch.size(), lastTsNs);
                return Optional.of(next);
            } catch (Exception e) {
                abortAfter(e);
                throw timedOutOr(e);
            }
        }

        /** Says what became of an event too large for one Kafka record; the batch goes on either way. */
        private void oversized(MetaLogRecord record, TransactionalPublisher.Sent sent) {
            String event = record.getDirectory() + " " + (record.getLogicalKey().isEmpty() ? "(bucket " + record.getBucket()
                    + ")" : record.getLogicalKey()) + " ts_ns=" + record.getTsNs() + " kind=" + record.getKind();
            if (sent == TransactionalPublisher.Sent.SLIMMED) {
                metrics.slimmed();
                log.warn("event {} is {} bytes, too large for one Kafka record: published without its large "
                        + "attributes (flagged slimmed)", event, record.getSerializedSize());
            } else {
                metrics.parked();
                log.error("event {} is {} bytes and cannot be made small enough for one Kafka record: not published",
                        event, record.getSerializedSize());
            }
        }

        /**
         * The bucket's entry now (empty inside: the bucket is gone), or nothing when the filer refuses the lookup with
         * an error of its own (a refusal, or a fault such as UNKNOWN that would fail every batch again): then the bucket's configuration stays as it was until its next event, with an error log
         * and a count, instead of failing every batch for ever. Transient errors still fail the batch, to be retried.
         */
        private Optional<Optional<Entry>> lookUp(String bucket) {
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
         * before the commit.
         *
         * @param generationTsNs the ts_ns of the bucket's last event in the batch (the enumeration's start at a cold
         *                       start), which names a recovery walk
         */
        private boolean bucketEntry(String bucket, Entry entry, long generationTsNs) throws Exception {
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
            // A cold start sums its buckets up per chunk; a line for each of thousands would cost more than the work.
            if (coldStarting ? log.isDebugEnabled() : log.isInfoEnabled()) {
                String what = c.removed() ? "lifecycle configuration removed"
                        : c.config().invalidCode() != null ? "invalid lifecycle configuration ("
                        + c.config().invalidCode() + ")" : "lifecycle configuration "
                        + c.config().ruleSetHash().substring(0, 16) + (c.recovery() ? ", recovery walk requested" : "");
                if (coldStarting) {
                    log.debug("bucket {}: {}", bucket, what);
                } else {
                    log.info("bucket {}: {}", bucket, what);
                }
            }
            metrics.registry(tracker.size(), tracker.invalidCount());
            return c.recovery();
        }

        /** A recovery walk of a bucket whose configuration did not change, if it has valid lifecycle rules. */
        private void recoveryWalk(String bucket, long generationTsNs) throws Exception {
            Optional<BucketConfig> config = tracker.current(bucket).filter(c -> c.invalidCode() == null);
            if (config.isPresent()) {
                publisher.bucketTask(BucketRegistry.recoveryTask(new BucketConfigChange(bucket, config.get(), true),
                        generationTsNs));
                metrics.gapWalkRequested();
            }
        }

        private void abort() {
            publisher.abort();
            metrics.aborted();
            log.info("leadership ended; the open transaction was aborted");
        }

        /** Aborts the open transaction after an error, if the producer still can; the error itself propagates. */
        private void abortAfter(Exception cause) {
            metrics.aborted();
            try {
                publisher.abort();
            } catch (KafkaException | IllegalStateException e) {
                log.debug("abort after {} failed too: {}", cause.toString(), e.toString());
            }
        }
    }
}
