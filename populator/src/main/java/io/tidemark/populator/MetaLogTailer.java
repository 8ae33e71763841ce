package io.tidemark.populator;

import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.PopulatorCheckpoint.FilerCursor;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Supplier;
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
    private final FilerClock filerTime;
    /** The filers' time when the master is asked for its list of them, carried forward between readings. */
    private final FilerClock listingClock;
    private final PopulatorMetrics metrics;
    /** Several filers, each tailed on its own ({@link FilerTails}); {@code null}: {@code filer}'s stream alone. */
    private final FilerDiscovery discovery;
    private final Function<String, FilerClient> connect;

    public MetaLogTailer(PopulatorSettings settings, FilerClient filer, BucketRegistry registry,
                         Supplier<TransactionalPublisher> publishers, Supplier<CommittedState> committedState,
                         RuleReader rules, ShardFunction shards, Clock clock, PopulatorMetrics metrics) {
        this(settings, filer, registry, publishers, committedState, rules, shards, clock, metrics, null, null);
    }

    /**
     * A tailer of several filers: each filer {@code discovery} finds is tailed on its own through a client from
     * {@code connect}; {@code filer} (one of them) answers every other call, on the store they share.
     */
    public MetaLogTailer(PopulatorSettings settings, FilerClient filer, BucketRegistry registry,
                         Supplier<TransactionalPublisher> publishers, Supplier<CommittedState> committedState,
                         RuleReader rules, ShardFunction shards, Clock clock, PopulatorMetrics metrics,
                         FilerDiscovery discovery, Function<String, FilerClient> connect) {
        this.discovery = discovery != null && discovery.enabled() ? discovery : null;
        this.connect = connect;
        this.settings = settings;
        this.filer = filer;
        this.registry = registry;
        this.publishers = publishers;
        this.committedState = committedState;
        this.rules = rules;
        this.shards = shards;
        this.clock = clock;
        this.filerTime = FilerClock.of(filer, clock, Duration.ZERO);
        this.listingClock = FilerClock.of(filer, clock, FilerClock.DEFAULT_MAX_AGE);
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
            Term term = new Term(publisher, new BucketChanges(publisher, tracker, registry.fencedBy(leaderNode), filer,
                    bucketsDirectory, metrics), bucketsDirectory, leading);
            if (!term.buckets.reconcileRegistry()) {
                return;
            }
            Optional<PopulatorCheckpoint> checkpoint = committed.checkpoint().map(c -> resumePoint(c, committed));
            checkpoint.map(PopulatorCheckpoint::gap).ifPresent(metrics::lastGap);
            if (checkpoint.isEmpty()) {
                // The filer's time, not this host's: the subscription's start is compared with the filer's stamps.
                long startNs = EpochNanos.of(filerTime.nowBlocking());
                long subscribeFrom = Math.max(0, startNs - settings.coldStartOverlap().toNanos());
                log.info("cold start: no checkpoint; enumerating buckets under {}", bucketsDirectory);
                metrics.coldStart();
                PopulatorCheckpoint start = new PopulatorCheckpoint(subscribeFrom, 0, 0, startNs, "");
                checkpoint = term.coldStart.enumerate(discovery == null ? start : startingCursors(start, startNs));
            } else if (checkpoint.get().coldStarting()) {
                log.info("{}: resuming the bucket enumeration after \"{}\"", checkpoint.get().walkingAll()
                        ? "meta-log gap" : "cold start", checkpoint.get().coldStartCursor());
                // Away long enough, the logs may have been purged past where the subscription is to begin.
                Optional<PopulatorCheckpoint> gapped = term.gaps.lookAfter(furthestBehind(checkpoint.get()),
                        checkpoint.get());
                checkpoint = term.coldStart.enumerate(gapped.orElse(checkpoint.get()));
            } else {
                log.info("resuming after ts_ns {} ({} events at that ts, {} published so far)", checkpoint.get().tsNs(),
                        checkpoint.get().eventsAtTs(), checkpoint.get().published());
                Optional<PopulatorCheckpoint> gapped = term.gaps.lookAfter(furthestBehind(checkpoint.get()),
                        checkpoint.get());
                if (gapped.isPresent()) {
                    checkpoint = term.coldStart.enumerate(gapped.get());
                }
            }
            if (checkpoint.isPresent() && discovery == null) {
                term.tail(checkpoint.get());
            } else if (checkpoint.isPresent()) {
                term.tailEach(checkpoint.get());
            }
        }
    }

    /** Where a meta-log gap would bite first: with several filers, the cursor furthest behind. */
    private static PopulatorCheckpoint furthestBehind(PopulatorCheckpoint checkpoint) {
        if (checkpoint.filers() == null || checkpoint.filers().isEmpty()) {
            return checkpoint;
        }
        long low = checkpoint.filers().values().stream().mapToLong(FilerCursor::tsNs).min().orElse(checkpoint.tsNs());
        return low >= checkpoint.tsNs() ? checkpoint : checkpoint.resumingAfter(low, 0);
    }

    /** A cold start's checkpoint with a cursor for every filer found, where {@code start} subscribes from. */
    private PopulatorCheckpoint startingCursors(PopulatorCheckpoint start, long startNs) {
        Map<String, FilerCursor> cursors = new TreeMap<>();
        FilerDiscovery.Found found = discovery.find();
        found.filers().keySet().forEach(a -> cursors.put(a, new FilerCursor(start.tsNs(), 0, clock.millis())));
        // Asked after startNs, on the filer's clock: a filer the master did not list then joined later.
        return found.listed() ? start.withFilers(cursors).withFilersListedAt(startNs) : start.withFilers(cursors);
    }

    /**
     * The checkpoint, or the end of the committed meta-log where that lies further: then a batch's events are
     * readable while its checkpoint is not (a transaction Kafka has decided on some partitions only), and resuming
     * from the checkpoint would publish them twice. The running count is the checkpoint's, without that batch.
     */
    static PopulatorCheckpoint resumePoint(PopulatorCheckpoint checkpoint, CommittedState committed) {
        return committed.metaLogTail().filter(tail -> tail.beyond(checkpoint)).map(tail -> {
            log.warn("the meta-log holds events past the checkpoint (ts_ns {} #{} beyond ts_ns {}); resuming after them",
                    tail.tsNs(), tail.seqAtTs(), checkpoint.tsNs());
            // With several filers their cursors stay: the batch's events come again and are published twice rather
            // than a filer's events after its cursor lost.
            return checkpoint.resumingAfter(tail.tsNs(), tail.seqAtTs() + 1);
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

    /**
     * One term's publishing: the meta-log read batch by batch, each batch with the bucket configurations it changed
     * published in one transaction with the checkpoint that covers it; the cold start, the registry and the gap check
     * in classes of their own, sharing the term's transaction.
     */
    private final class Term {
        private final TransactionalPublisher publisher;
        private final BucketChanges buckets;
        private final GapCheck gaps;
        private final ColdStart coldStart;
        private final TermAborts aborts;
        private final EventClassifier classifier;
        private final BooleanSupplier leading;
        private final String bucketsDirectory;
        private long lastTsNs;
        private int eventsAtTs;

        Term(TransactionalPublisher publisher, BucketChanges buckets, String bucketsDirectory,
             BooleanSupplier leading) {
            this.publisher = publisher;
            this.buckets = buckets;
            this.gaps = new GapCheck(filer, settings.gapRecheck(), clock, metrics);
            this.aborts = new TermAborts(publisher, settings.transactionTimeout(), metrics);
            this.coldStart = new ColdStart(settings, filer, bucketsDirectory, publisher, buckets, aborts, leading,
                    metrics);
            this.bucketsDirectory = bucketsDirectory;
            this.classifier = new EventClassifier(bucketsDirectory, shards);
            this.leading = leading;
        }

        void tail(PopulatorCheckpoint from) throws Exception {
            lastTsNs = from.tsNs();
            eventsAtTs = from.eventsAtTs();
            // Back to one filer's stream: cursors of several would be stale if they were ever used again.
            PopulatorCheckpoint checkpoint = from.filers() == null ? from : from.withFilers(null);
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
                        if (!buckets.reconcileRegistry()) {
                            return;
                        }
                        reconciled = System.nanoTime();
                    }
                    // Between batches, so the gap's checkpoint follows the last one committed.
                    Optional<PopulatorCheckpoint> gapped = gaps.retryIfDue(checkpoint);
                    if (gapped.isPresent()) {
                        Optional<PopulatorCheckpoint> walked = coldStart.enumerate(gapped.get());
                        if (walked.isEmpty()) {
                            return;
                        }
                        checkpoint = walked.get();
                        lastTsNs = checkpoint.tsNs();
                        eventsAtTs = checkpoint.eventsAtTs();
                    }
                    batch.clear();
                    gather(subscription, batch);
                    int reconnects = subscription.reconnects();
                    metrics.reconnects(reconnects - reconnectsSeen);
                    if (reconnects > reconnectsSeen) {
                        // Looked into once this batch is committed, from where the batch began.
                        gaps.afterReconnect(checkpoint);
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

        /**
         * Tails every filer's own meta-log ({@link FilerTails}), merged in timestamp order ({@link FilerMerge}); each
         * batch commits with every filer's cursor. A filer not in the checkpoint yet (listed since) is tailed from a
         * cold-start overlap before what the merge has published, copies of its peers' events left out.
         */
        void tailEach(PopulatorCheckpoint from) throws Exception {
            lastTsNs = from.tsNs();
            eventsAtTs = from.eventsAtTs();
            PopulatorCheckpoint checkpoint = from;
            Map<String, FilerCursor> known = from.filers() == null ? Map.of() : from.filers();
            FilerMerge merge = new FilerMerge(settings.filerHoldMax(), settings.filerMaxClockSkew(),
                    settings.filerRemembered(), from.tsNs(), System::nanoTime);
            long reconciled = System.nanoTime();
            long discovered = System.nanoTime();
            List<FilerMerge.Taken> taken = new ArrayList<>();
            Set<String> quietSeen = new TreeSet<>();
            try (FilerTails tails = new FilerTails(settings, bucketsDirectory + "/", connect, merge, clock)) {
                Optional<Long> askedNs = listingTime(true);
                FilerDiscovery.Found found = discovery.find();
                for (Map.Entry<String, FilerCursor> k : known.entrySet()) {
                    if (found.filers().containsKey(k.getKey()) || discovery.fromMaster()) {
                        // One the master does not list now may be down: it keeps its cursor until retired.
                        tails.open(k.getKey(), k.getValue());
                    } else {
                        log.warn("filer {} is no longer in filer.addresses: its cursor is dropped", k.getKey());
                    }
                }
                Optional<PopulatorCheckpoint> joined = openJoined(tails, merge, found, askedNs, checkpoint);
                if (joined.isEmpty()) {
                    return;
                }
                checkpoint = joined.get();
                while (leading.getAsBoolean()) {
                    if (System.nanoTime() - reconciled >= settings.registryReconcile().toNanos()) {
                        if (!buckets.reconcileRegistry()) {
                            return;
                        }
                        reconciled = System.nanoTime();
                    }
                    if (System.nanoTime() - discovered >= settings.filerDiscovery().toNanos()) {
                        Optional<Long> asked = listingTime(false);
                        Optional<PopulatorCheckpoint> next = openJoined(tails, merge, discovery.find(), asked,
                                checkpoint);
                        if (next.isEmpty()) {
                            return;
                        }
                        checkpoint = next.get();
                        discovered = System.nanoTime();
                    }
                    // Judged from the filer furthest behind (afterReconnect); the merge position stays, cursors rise.
                    Optional<PopulatorCheckpoint> gapped = gaps.retryIfDue(checkpoint.withFilers(tails.cursors()));
                    if (gapped.isPresent()) {
                        Optional<PopulatorCheckpoint> walked = coldStart.enumerate(gapped.get());
                        if (walked.isEmpty()) {
                            return;
                        }
                        checkpoint = walked.get();
                        tails.raiseTo(checkpoint.filers());
                    }
                    taken.clear();
                    gatherEach(tails, merge, taken);
                    int reconnects = tails.newReconnects();
                    metrics.reconnects(reconnects);
                    if (reconnects > 0) {
                        gaps.afterReconnect(furthestBehind(checkpoint.withFilers(tails.cursors())));
                    }
                    metrics.outOfOrder(tails.newOutOfOrder());
                    metrics.filerRereads(tails.newRereads());
                    metrics.filerRereadsFailed(tails.newFailedRereads());
                    for (String silent : tails.silentFor(settings.filerRetire())) {
                        log.error("filer {}: not heard from for {}; retired, its cursor dropped (should it come back, "
                                + "it is tailed from a cold-start overlap before what is published then)", silent,
                                settings.filerRetire());
                        metrics.filerRetired();
                        tails.retire(silent);
                    }
                    Set<String> quiet = merge.quiet();
                    for (String filer : quiet) {
                        if (quietSeen.add(filer)) {
                            log.info("filer {}: nothing for {}; no longer holding the others' events back",
                                    filer, settings.filerHoldMax());
                        }
                    }
                    quietSeen.retainAll(quiet);
                    metrics.filers(tails.addresses().size(), quiet.size());
                    if (taken.isEmpty()) {
                        metrics.caughtUp(tails::leastSilence);
                        continue;
                    }
                    metrics.behind();
                    List<FilerEvent> batch = new ArrayList<>(taken.size());
                    for (FilerMerge.Taken t : taken) {
                        tails.taken(t);
                        if (t.duplicate()) {
                            metrics.filerDuplicate();
                            continue;
                        }
                        if (t.late()) {
                            metrics.filerLate(t.unverified());
                            boolean recovered = FilerTails.isReread(t.filer());
                            if (recovered) {
                                metrics.filerRecovered();
                            }
                            log.warn("filer {}: event at ts_ns {} ({}) published late, after events stamped up to {}{}{}",
                                    t.filer(), t.tsNs(), t.event().response().getDirectory(), merge.releasedTsNs(),
                                    recovered ? "; its filer's stream skipped it in a catch-up" : "",
                                    t.unverified() ? "; it may have been published before (older than the "
                                            + "copies remembered)" : "");
                        }
                        batch.add(t.event());
                    }
                    Optional<PopulatorCheckpoint> next = publish(batch, checkpoint, tails.cursors());
                    if (next.isEmpty()) {
                        return;
                    }
                    checkpoint = next.get();
                }
            }
        }

        /**
         * Tails the filers found that are not tailed yet ({@link JoinedFilerStart}): from a cold-start overlap before
         * what is published, or from the last master list they were not in, when that is earlier (the master did not
         * answer for a while) — or, when copies of the peers' events that far back could no longer be told apart, from
         * the overlap with a walk of every lifecycle bucket for the span before it. Not from when the master says a
         * filer joined: a restarted master says "now" for every filer. Returns the checkpoint to go on from, the list
         * read at {@code askedNs} recorded when the master answered; empty when the term ended during a walk.
         */
        private Optional<PopulatorCheckpoint> openJoined(FilerTails tails, FilerMerge merge, FilerDiscovery.Found found,
                                                         Optional<Long> askedNs, PopulatorCheckpoint at)
                throws Exception {
            long walkFromNs = Long.MAX_VALUE;
            long walkToNs = 0;
            for (Map.Entry<String, Optional<Instant>> f : found.filers().entrySet()) {
                if (tails.addresses().contains(f.getKey())) {
                    continue;
                }
                JoinedFilerStart start = JoinedFilerStart.of(at.tsNs(), settings.coldStartOverlap(),
                        at.filersListedNs(), settings.filerMaxClockSkew(), merge::recognisesCopiesFrom);
                String who = f.getValue().map(j -> "joined the cluster at " + j).orElse("is new to the populator");
                if (start.repair() == JoinedFilerStart.Repair.WALK) {
                    metrics.filerFoundLate(true);
                    walkFromNs = Math.min(walkFromNs, start.walkFromNs());
                    walkToNs = Math.max(walkToNs, start.tailFromNs());
                    log.error("filer {} {}: found late, it may have written since ts_ns {}, too far back to tell its "
                            + "peers' events there from what was published; tailed from ts_ns {}, and every lifecycle "
                            + "bucket is walked for the span before", f.getKey(), who, start.walkFromNs(),
                            start.tailFromNs());
                } else if (start.repair() == JoinedFilerStart.Repair.READ_BACK) {
                    metrics.filerFoundLate(false);
                    log.warn("filer {} {}: found late (the master did not list it for a while); tailed from ts_ns {}, "
                            + "the last list without it", f.getKey(), who, start.tailFromNs());
                } else {
                    log.info("filer {} {}: tailed from ts_ns {}, a cold-start overlap before what is published",
                            f.getKey(), who, start.tailFromNs());
                }
                tails.open(f.getKey(), new FilerCursor(start.tailFromNs(), 0, clock.millis()));
            }
            // Every filer of the list is tailed now: one it did not name joined later.
            PopulatorCheckpoint checkpoint = found.listed() && askedNs.isPresent()
                    ? at.withFilersListedAt(askedNs.get()) : at;
            if (walkToNs == 0) {
                return Optional.of(checkpoint);
            }
            PopulatorCheckpoint gapped = checkpoint.withFilers(tails.cursors()).filerFoundLate(walkFromNs, walkToNs,
                    askedNs.orElse(EpochNanos.of(clock.instant())));
            metrics.gapFound(gapped.gap());
            return coldStart.enumerate(gapped);
        }

        /**
         * The earliest the filers' time can be now, as the master is asked for its list (their stamps are compared
         * with it). Empty when the filer's clock cannot be read, or, unless {@code wait}, while no reading of it is at
         * hand: one is asked for, for the next time, so the tail loop never waits for it.
         */
        private Optional<Long> listingTime(boolean wait) {
            try {
                return Optional.ofNullable(wait ? listingClock.nowBlocking() : listingClock.now().getNow(null))
                        .map(EpochNanos::of);
            } catch (RuntimeException e) {
                return Optional.empty();
            }
        }

        /**
         * Moves events into the merge and takes what it releases, until the batch holds
         * {@code populator.batch.max.events} to publish or its time is up. Duplicates are not counted: in a catch-up
         * from a shared store two thirds of what three filers send are copies, and counting them made each
         * transaction carry a third of what it may.
         */
        private void gatherEach(FilerTails tails, FilerMerge merge, List<FilerMerge.Taken> taken)
                throws InterruptedException {
            long deadline = System.nanoTime() + settings.batchMaxWait().toNanos();
            long giveUp = System.nanoTime() + POLL.toNanos();
            int toPublish = 0;
            boolean released = false;
            while (toPublish < settings.batchMaxEvents()) {
                // The merge let events go last time: more may go now, so the streams are not waited for.
                tails.pump(released ? Duration.ZERO : Duration.ofMillis(10));
                List<FilerMerge.Taken> out = merge.release(settings.batchMaxEvents() - toPublish);
                released = !out.isEmpty();
                for (FilerMerge.Taken t : out) {
                    taken.add(t);
                    if (!t.duplicate()) {
                        toPublish++;
                    }
                }
                long now = System.nanoTime();
                if (taken.isEmpty() ? now - giveUp >= 0 : now - deadline >= 0) {
                    return;
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
            return publish(batch, checkpoint, null);
        }

        /** Publishes a batch; with several filers, {@code cursors} are where each filer's stream now resumes. */
        private Optional<PopulatorCheckpoint> publish(List<FilerEvent> batch, PopulatorCheckpoint checkpoint,
                                                      Map<String, FilerCursor> cursors) throws Exception {
            Map<EventKind, Integer> kinds = new EnumMap<>(EventKind.class);
            Map<String, Long> bucketsChanged = new LinkedHashMap<>();
            publisher.begin();
            try {
                for (FilerEvent filerEvent : batch) {
                    SubscribeMetadataResponse event = filerEvent.response();
                    long ts = event.getTsNs();
                    int seq = ts == lastTsNs ? eventsAtTs : 0;
                    if (ts >= lastTsNs) {
                        // A late event of one of several filers does not move the merge's position back.
                        lastTsNs = ts;
                        eventsAtTs = seq + 1;
                    }
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
                    Optional<Optional<Entry>> now = buckets.lookUp(changed.getKey());
                    if (now.isPresent()) {
                        buckets.apply(changed.getKey(), now.get().orElse(null), changed.getValue(), false);
                    }
                }
                if (!buckets.writeRegistry() || !leading.getAsBoolean()) {
                    aborts.leadershipEnded();
                    return Optional.empty();
                }
                PopulatorCheckpoint next = checkpoint.advancedTo(lastTsNs, eventsAtTs, batch.size());
                if (cursors != null) {
                    next = next.withFilers(cursors);
                }
                publisher.commit(next);
                metrics.committed(kinds, batch.size(), lastTsNs);
                return Optional.of(next);
            } catch (Exception e) {
                throw aborts.afterError(e);
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
    }
}
