package io.tidemark.populator;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.seaweed.EpochNanos;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * The populator's meters, and the figures its status line prints. Events are counted when read from the filer and
 * again, by kind, when the transaction that carries them commits, so the two differ by what is in flight or was
 * rolled back.
 */
public final class PopulatorMetrics {

    private final Clock clock;
    private final Map<EventKind, Counter> read = new EnumMap<>(EventKind.class);
    private final Map<EventKind, Counter> published = new EnumMap<>(EventKind.class);
    private final LongAdder publishedTotal = new LongAdder();
    private final LongAdder reconnects = new LongAdder();
    private final LongAdder outOfOrder = new LongAdder();
    private final LongAdder filerDuplicates = new LongAdder();
    private final LongAdder filerLate = new LongAdder();
    private final LongAdder filerLateUnverified = new LongAdder();
    private final LongAdder filersRetired = new LongAdder();
    private final LongAdder filerRereads = new LongAdder();
    private final LongAdder filerRereadsFailed = new LongAdder();
    private final LongAdder filerRecovered = new LongAdder();
    private final LongAdder filersFoundLateReadBack = new LongAdder();
    private final LongAdder filersFoundLateWalked = new LongAdder();
    private volatile int filersTailed;
    private volatile int filersQuiet;
    private final LongAdder unreadableConfigs = new LongAdder();
    private final LongAdder foreignMetaLogRecords = new LongAdder();
    private final LongAdder registryRejected = new LongAdder();
    private final LongAdder bucketLookupsFailed = new LongAdder();
    private final LongAdder coldStarts = new LongAdder();
    private final LongAdder coldStartBuckets = new LongAdder();
    private final LongAdder transactionsTimedOut = new LongAdder();
    private final LongAdder registryRepairs = new LongAdder();
    private final LongAdder termsStarted = new LongAdder();
    private final LongAdder gapsFound = new LongAdder();
    private final LongAdder gapWalks = new LongAdder();
    private final AtomicLong lastGapFoundNs = new AtomicLong();
    private final AtomicLong lastGapNs = new AtomicLong();
    private final Map<TermFailure, LongAdder> stoodDown = new EnumMap<>(TermFailure.class);
    private final Counter committed;
    private final Counter aborted;
    private final Counter slimmed;
    private final Counter parked;
    private final Counter invalidConfigSeen;
    private final DistributionSummary batchSize;
    private final AtomicLong lastPublishedTsNs = new AtomicLong();
    /** While caught up: how long the filer has been silent; {@code null} while events wait to be published. */
    private volatile Supplier<Duration> silence;
    private volatile boolean leader;
    private volatile int registrySize;
    private volatile int invalidConfigs;
    private volatile PopulatorStatus status = PopulatorStatus.STARTING;

    public PopulatorMetrics(MeterRegistry registry, Clock clock) {
        this.clock = clock;
        for (EventKind kind : EventKind.values()) {
            if (kind == EventKind.UNRECOGNIZED || kind == EventKind.EVENT_KIND_UNSPECIFIED) {
                continue;
            }
            String tag = kind.name().toLowerCase();
            read.put(kind, Counter.builder("tidemark.populator.events.read").tag("kind", tag)
                    .description("Filer events read, by kind").register(registry));
            published.put(kind, Counter.builder("tidemark.populator.events.published").tag("kind", tag)
                    .description("Events committed to the meta-log topic, by kind").register(registry));
        }
        committed = Counter.builder("tidemark.populator.transactions").tag("outcome", "committed").register(registry);
        aborted = Counter.builder("tidemark.populator.transactions").tag("outcome", "aborted").register(registry);
        slimmed = Counter.builder("tidemark.populator.records.slimmed")
                .description("Filer events too large for one Kafka record, published without their large attributes")
                .register(registry);
        parked = Counter.builder("tidemark.populator.records.parked")
                .description("Filer events that could not be published at all (logged, skipped)").register(registry);
        invalidConfigSeen = Counter.builder("tidemark.populator.invalid.configs.seen")
                .description("Bucket lifecycle configurations found invalid").register(registry);
        batchSize = DistributionSummary.builder("tidemark.populator.batch.size").baseUnit("events")
                .description("Events per committed transaction").register(registry);
        FunctionCounter.builder("tidemark.populator.reconnects", reconnects, LongAdder::sum)
                .description("Filer stream reconnects").register(registry);
        FunctionCounter.builder("tidemark.populator.meta.log.foreign.records", foreignMetaLogRecords, LongAdder::sum)
                .description("meta-log records found past the populator's own at a term's start, written by "
                        + "another writer and ignored for the resume position").register(registry);
        FunctionCounter.builder("tidemark.populator.bucket.lookups.failed", bucketLookupsFailed, LongAdder::sum)
                .description("Bucket lookups the filer refused with a permanent error; the bucket's configuration "
                        + "was left as it was for that batch").register(registry);
        FunctionCounter.builder("tidemark.populator.registry.rejected", registryRejected, LongAdder::sum)
                .description("Buckets whose name ZooKeeper refuses as a path: published, but not registered, "
                        + "so never walked").register(registry);
        FunctionCounter.builder("tidemark.populator.configs.unreadable", unreadableConfigs, LongAdder::sum)
                .description("bucket-configs records that could not be read at a term's start; each bucket was "
                        + "looked up on the filer instead").register(registry);
        FunctionCounter.builder("tidemark.populator.events.out.of.order", outOfOrder, LongAdder::sum)
                .description("Filer events older than one already read on the same stream, skipped (the meta-log "
                        + "must be in timestamp order)").register(registry);
        FunctionCounter.builder("tidemark.populator.filer.events.duplicate", filerDuplicates, LongAdder::sum)
                .description("With several filers: copies of an event already published (a filer's catch-up from "
                        + "the shared log files returns its peers' events), left out").register(registry);
        FunctionCounter.builder("tidemark.populator.filer.events.late", filerLate, LongAdder::sum)
                .description("With several filers: events published after newer ones, because their filer had "
                        + "been quiet past populator.filers.hold.max.ms").register(registry);
        FunctionCounter.builder("tidemark.populator.filer.events.late.unverified", filerLateUnverified,
                        LongAdder::sum)
                .description("Late events older than the copies remembered: published, possibly a second time")
                .register(registry);
        FunctionCounter.builder("tidemark.populator.filer.rereads", filerRereads, LongAdder::sum)
                .description("With several filers: spans of a filer's log read again once flushed, after a "
                        + "(re)connection whose catch-up may have skipped its own events (populator.filers.flush"
                        + ".interval.ms)").register(registry);
        FunctionCounter.builder("tidemark.populator.filer.rereads.failed", filerRereadsFailed, LongAdder::sum)
                .description("With several filers: second reads that failed (a permanent error from the filer): "
                        + "what the catch-up skipped in their span, if anything, stays unpublished").register(registry);
        FunctionCounter.builder("tidemark.populator.filer.events.recovered", filerRecovered, LongAdder::sum)
                .description("With several filers: events a filer's stream skipped in a catch-up and a re-read "
                        + "found, published late (also counted in filer.events.late)").register(registry);
        FunctionCounter.builder("tidemark.populator.filers.found.late", filersFoundLateReadBack, LongAdder::sum)
                .tag("repair", "read-back")
                .description("With several filers: filers found after the master had not answered for longer than "
                        + "populator.cold-start.overlap.ms, by how their events since the last list without them "
                        + "are recovered: read back from their log, or walked (a gap of its own)").register(registry);
        FunctionCounter.builder("tidemark.populator.filers.found.late", filersFoundLateWalked, LongAdder::sum)
                .tag("repair", "walk")
                .description("With several filers: filers found after the master had not answered for longer than "
                        + "populator.cold-start.overlap.ms, by how their events since the last list without them "
                        + "are recovered: read back from their log, or walked (a gap of its own)").register(registry);
        FunctionCounter.builder("tidemark.populator.filers.retired", filersRetired, LongAdder::sum)
                .description("Filers not heard from for populator.filers.retire.ms whose cursors were dropped")
                .register(registry);
        Gauge.builder("tidemark.populator.filers.tailed", () -> filersTailed)
                .description("Filers whose own meta-logs the leading populator tails (0 with one filer's stream)")
                .register(registry);
        Gauge.builder("tidemark.populator.filers.quiet", () -> filersQuiet)
                .description("Tailed filers that have sent nothing for populator.filers.hold.max.ms and no longer "
                        + "hold the others' events back").register(registry);
        FunctionCounter.builder("tidemark.populator.cold.starts", coldStarts, LongAdder::sum)
                .description("Cold starts begun (no checkpoint): every bucket enumerated and registered")
                .register(registry);
        FunctionCounter.builder("tidemark.populator.cold.start.buckets", coldStartBuckets, LongAdder::sum)
                .description("Buckets a cold start has enumerated and committed, resumed ones included")
                .register(registry);
        FunctionCounter.builder("tidemark.populator.transactions.timed.out", transactionsTimedOut, LongAdder::sum)
                .description("Transactions that failed after outliving transaction.timeout.ms (aborted by the "
                        + "coordinator, not fenced by a successor); the term was retried").register(registry);
        FunctionCounter.builder("tidemark.populator.registry.repairs", registryRepairs, LongAdder::sum)
                .description("Registry nodes a reconcile found different from the published configurations and "
                        + "rewrote or removed").register(registry);
        FunctionCounter.builder("tidemark.populator.terms", termsStarted, LongAdder::sum)
                .description("Leadership terms begun by this instance; a leader that keeps its place begins one")
                .register(registry);
        for (TermFailure reason : new TermFailure[] {TermFailure.FENCED, TermFailure.SUPERSEDED}) {
            LongAdder count = new LongAdder();
            stoodDown.put(reason, count);
            FunctionCounter.builder("tidemark.populator.stood.down", count, LongAdder::sum)
                    .tag("reason", reason.name().toLowerCase(Locale.ROOT))
                    .description("Terms that failed while another instance led (fenced by its producer, or named "
                            + "leader by ZooKeeper), after which this instance rejoined the election").register(registry);
        }
        FunctionCounter.builder("tidemark.populator.meta.log.gaps", gapsFound, LongAdder::sum)
                .description("Times the filer's meta-log no longer reached back to where the populator resumed "
                        + "(its log files purged): what changed in between was never published").register(registry);
        FunctionCounter.builder("tidemark.populator.meta.log.gap.walks", gapWalks, LongAdder::sum)
                .description("Recovery walks asked for after a meta-log gap, one per lifecycle bucket whose rules did "
                        + "not change").register(registry);
        Gauge.builder("tidemark.populator.meta.log.gap.found.timestamp.seconds", lastGapFoundNs, n -> n.get() / 1e9)
                .description("When the last meta-log gap was found (epoch seconds; 0: never), from the committed "
                        + "checkpoint").register(registry);
        Gauge.builder("tidemark.populator.meta.log.gap.seconds", lastGapNs, n -> n.get() / 1e9)
                .description("How much of the meta-log the last gap lost: from where the populator was to resume to "
                        + "where the filer's log then started").register(registry);
        Gauge.builder("tidemark.populator.lag.seconds", this, PopulatorMetrics::lagSeconds)
                .description("Now minus the ts of the last published event; 0 while caught up").register(registry);
        Gauge.builder("tidemark.populator.leader", this, m -> m.leader ? 1 : 0)
                .description("1 on the instance that tails the filer").register(registry);
        Gauge.builder("tidemark.populator.registry.buckets", this, m -> m.registrySize)
                .description("Buckets in the lifecycle registry, valid or not").register(registry);
        Gauge.builder("tidemark.populator.invalid.configs", this, m -> m.invalidConfigs)
                .description("Buckets whose lifecycle configuration is invalid").register(registry);
    }

    void read(EventKind kind) {
        read.get(kind).increment();
    }

    /** A batch committed: its events by kind, and the timestamp it ends on. */
    void committed(Map<EventKind, Integer> kinds, int size, long lastTsNs) {
        kinds.forEach((kind, n) -> published.get(kind).increment(n));
        publishedTotal.add(size);
        batchSize.record(size);
        committed.increment();
        lastPublishedTsNs.set(lastTsNs);
    }

    void slimmed() {
        slimmed.increment();
    }

    void parked() {
        parked.increment();
    }

    void aborted() {
        aborted.increment();
    }

    void invalidConfigSeen() {
        invalidConfigSeen.increment();
    }

    /** Meta-log records another writer left past the populator's own, not taken as its position. */
    void foreignMetaLogRecords(long n) {
        foreignMetaLogRecords.add(n);
    }

    void bucketLookupFailed() {
        bucketLookupsFailed.increment();
    }

    public long bucketLookupsFailed() {
        return bucketLookupsFailed.sum();
    }

    void registryRejection() {
        registryRejected.increment();
    }

    public long registryRejected() {
        return registryRejected.sum();
    }

    void coldStart() {
        coldStarts.increment();
    }

    /** A meta-log gap found by this instance. */
    void gapFound(PopulatorCheckpoint.Gap gap) {
        gapsFound.increment();
        lastGap(gap);
    }

    /** The last gap the committed checkpoint records (null: none ever), so the gauges survive a restart. */
    void lastGap(PopulatorCheckpoint.Gap gap) {
        if (gap != null) {
            lastGapFoundNs.set(gap.foundNs());
            lastGapNs.set(Math.max(0, gap.toNs() - gap.fromNs()));
        }
    }

    void gapWalkRequested() {
        gapWalks.increment();
    }

    /** Gaps found by this instance. */
    public long gapsFound() {
        return gapsFound.sum();
    }

    public long coldStarts() {
        return coldStarts.sum();
    }

    void coldStartBuckets(int n) {
        coldStartBuckets.add(n);
    }

    public long coldStartBuckets() {
        return coldStartBuckets.sum();
    }

    void transactionTimedOut() {
        transactionsTimedOut.increment();
    }

    public long transactionsTimedOut() {
        return transactionsTimedOut.sum();
    }

    void termStarted() {
        termsStarted.increment();
    }

    public long termsStarted() {
        return termsStarted.sum();
    }

    void stoodDown(TermFailure reason) {
        stoodDown.get(reason).increment();
    }

    public long stoodDown() {
        return stoodDown.values().stream().mapToLong(LongAdder::sum).sum();
    }

    void registryRepairs(int n) {
        registryRepairs.add(n);
    }

    public long registryRepairs() {
        return registryRepairs.sum();
    }

    void unreadableConfig() {
        unreadableConfigs.increment();
    }

    public long unreadableConfigs() {
        return unreadableConfigs.sum();
    }

    void outOfOrder(long n) {
        outOfOrder.add(n);
    }

    void filerDuplicate() {
        filerDuplicates.increment();
    }

    void filerLate(boolean unverified) {
        filerLate.increment();
        if (unverified) {
            filerLateUnverified.increment();
        }
    }

    void filerRereads(int started) {
        filerRereads.add(started);
    }

    void filerRereadsFailed(int failed) {
        filerRereadsFailed.add(failed);
    }

    void filerRecovered() {
        filerRecovered.increment();
    }

    /** A filer found late: its span read back from its log, or ({@code walked}) left to a walk of every bucket. */
    void filerFoundLate(boolean walked) {
        (walked ? filersFoundLateWalked : filersFoundLateReadBack).increment();
    }

    void filerRetired() {
        filersRetired.increment();
    }

    void filers(int tailed, int quiet) {
        filersTailed = tailed;
        filersQuiet = quiet;
    }

    void reconnects(int n) {
        reconnects.add(n);
    }

    /** The last poll came back empty: the lag is how long the filer has been silent (no event, no heartbeat). */
    void caughtUp(Supplier<Duration> silentFor) {
        silence = silentFor;
    }

    /** Events were read and are being published: the lag is the age of the newest published event. */
    void behind() {
        silence = null;
    }

    void leader(boolean value) {
        leader = value;
    }

    void registry(int size, int invalid) {
        registrySize = size;
        invalidConfigs = invalid;
    }

    void status(PopulatorStatus value) {
        status = value;
    }

    public boolean leader() {
        return leader;
    }

    public PopulatorStatus status() {
        return status;
    }

    public long published() {
        return publishedTotal.sum();
    }

    public long lastPublishedTsNs() {
        return lastPublishedTsNs.get();
    }

    /**
     * How far behind the filer the populator is. Caught up, it is the time since the filer last said anything, so
     * a subscription that cannot reconnect shows a growing lag instead of a healthy 0; behind, the age of the newest
     * published event.
     */
    public double lagSeconds() {
        Supplier<Duration> silent = silence;
        if (silent != null) {
            return silent.get().toMillis() / 1e3;
        }
        long ts = lastPublishedTsNs.get();
        if (ts == 0) {
            return 0;
        }
        return Math.max(0, EpochNanos.of(clock.instant()) - ts) / 1e9;
    }

    /** The periodic status line; its tokens are stable for log scrapers. */
    public String statusLine() {
        return String.format(Locale.ROOT, "populator: status=%s lag=%.1fs published=%d leader=%d buckets=%d invalid=%d "
                        + "reconnects=%d aborted=%d slimmed=%d parked=%d", status, lagSeconds(), published(),
                leader ? 1 : 0, registrySize, invalidConfigs, reconnects.sum(), (long) aborted.count(),
                (long) slimmed.count(), (long) parked.count());
    }
}
