package io.tidemark.emulator.filer;

import io.tidemark.emulator.SkewedClock;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One filer of the emulated cluster, as far as its events go: its signature, its own wall clock, the meta-log of the
 * mutations that went through it (stamped by that clock, strictly increasing even when the clock steps back), and
 * the aggregated log of what it has received from every filer, itself included. The namespace is the store's, shared
 * by all filers.
 */
public final class FilerNode {

    private final int signature;
    private final SkewedClock clock;
    final MetaLog log;
    final MetaLog aggregated;
    private volatile Duration delayToPeers = Duration.ZERO;
    private volatile Duration localStreamDelay = Duration.ZERO;
    private volatile boolean serving = true;
    private volatile boolean localStreamsRefused;
    private final AtomicLong skippedByCatchUps = new AtomicLong();
    private volatile long flushHeldBeforeNs = Long.MAX_VALUE;

    FilerNode(int signature, Clock base, Consumer<SubscribeMetadataResponse> persist,
              List<SubscribeMetadataResponse> recovered) {
        this.signature = signature;
        this.clock = new SkewedClock(base);
        this.log = new MetaLog(clock, persist, recovered);
        this.aggregated = new MetaLog(clock, null, List.of());
        // Upstream's aggregator starts empty with the filer; everything before is read from the persisted logs.
        aggregated.holdInMemoryFrom(EpochNanos.of(base.instant()));
    }

    /** The filer's signature: in {@code GetFilerConfiguration} and in the signatures of every event it records. */
    public int signature() {
        return signature;
    }

    /**
     * Moves this filer's clock {@code offset} away from the emulator's. Its stamps follow, but never go back: after a
     * step back they go on one nanosecond apart until the clock catches up, as upstream's log buffer does.
     */
    public void setClockOffset(Duration offset) {
        clock.set(offset);
    }

    public Duration clockOffset() {
        return clock.offset();
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Delays this filer's events on their way to its peers' aggregated logs (its own local and aggregated streams still
     * see them at once), as a slow link or a stalled peer stream would. Events keep their order on the way.
     */
    public void delayToPeers(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("a delay cannot be negative: " + delay);
        }
        delayToPeers = delay;
    }

    public Duration delayToPeers() {
        return delayToPeers;
    }

    /**
     * Holds back this filer's own meta-log stream ({@code SubscribeLocalMetadata}): each event reaches a subscriber no
     * sooner than {@code delay} after it was stamped, as a congested link or an overloaded filer would deliver it.
     * Events keep their order; a tail of several filers sees this one's events late against its peers'.
     */
    public void delayLocalStream(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("a delay cannot be negative: " + delay);
        }
        localStreamDelay = delay;
    }

    public Duration localStreamDelay() {
        return localStreamDelay;
    }

    /**
     * Refuses (or serves again) this filer's own meta-log stream while it goes on recording what it is sent, as a
     * network split between one filer and its subscribers would; see FilerEmulator#refuseLocalStreams.
     */
    public void setLocalStreamsRefused(boolean refused) {
        localStreamsRefused = refused;
    }

    public boolean localStreamsRefused() {
        return localStreamsRefused;
    }

    /** Flushes held before this stamp ({@code Long.MAX_VALUE}: not held); see FilerStore#holdLogFlush. */
    void holdFlushBefore(long tsNs) {
        flushHeldBeforeNs = tsNs;
    }

    long flushHeldBeforeNs() {
        return flushHeldBeforeNs;
    }

    void skippedByCatchUp(long events) {
        if (events > 0) {
            skippedByCatchUps.addAndGet(events);
        }
    }

    /**
     * How many of its own events this filer's local streams have never sent, over all their catch-ups: not flushed
     * yet and stamped before the last a peer's files gave, as upstream skips them (see FilerStore#setLogFlushInterval).
     */
    public long skippedByCatchUps() {
        return skippedByCatchUps.get();
    }

    /** Whether the filer is up: a filer that is down records nothing the gateway writes. */
    public boolean serving() {
        return serving;
    }

    public void setServing(boolean value) {
        serving = value;
    }

    /** The events this filer recorded, oldest first (those not purged). */
    public List<SubscribeMetadataResponse> events() {
        List<SubscribeMetadataResponse> events = new ArrayList<>();
        for (int i = log.firstIndex(); i < log.size(); i++) {
            events.add(log.get(i));
        }
        return events;
    }

    /** How many of the newest events of each of its logs this filer holds in memory; see FilerStore. */
    public void setMemoryWindow(int events) {
        log.setMemoryWindow(events);
        aggregated.setMemoryWindow(events);
    }

    @Override
    public String toString() {
        return "filer " + signature;
    }
}
