package io.tidemark.emulator.filer;

import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Carries each filer's events to the aggregated logs of every filer, as upstream's MetaAggregator does with one local
 * stream per peer: at once to the filer that recorded it, after that filer's {@link FilerNode#delayToPeers} to the
 * others. A peer receives one filer's events in the order they were recorded, whatever the delay did meanwhile,
 * because each is delivered no earlier than the one before it.
 */
final class PeerDelivery implements AutoCloseable {

    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "filer-peer-delivery");
        t.setDaemon(true);
        return t;
    });
    /** Per recording filer: when its latest scheduled delivery is due (System.nanoTime), and how many are pending. */
    private final Map<FilerNode, Long> dueAt = new HashMap<>();
    private final Map<FilerNode, Integer> pending = new HashMap<>();

    synchronized void deliver(FilerNode from, SubscribeMetadataResponse event, List<FilerNode> filers) {
        from.aggregated.appendAsReceived(event);
        List<FilerNode> peers = filers.stream().filter(f -> f != from).toList();
        if (peers.isEmpty()) {
            return;
        }
        long now = System.nanoTime();
        long at = Math.max(now + from.delayToPeers().toNanos(), dueAt.getOrDefault(from, now));
        if (at <= now && pending.getOrDefault(from, 0) == 0) {
            peers.forEach(p -> p.aggregated.appendAsReceived(event));
            return;
        }
        dueAt.put(from, at);
        pending.merge(from, 1, Integer::sum);
        // The scheduler runs tasks due at the same time in the order they were scheduled.
        scheduler.schedule(() -> {
            peers.forEach(p -> p.aggregated.appendAsReceived(event));
            delivered(from);
        }, at - now, TimeUnit.NANOSECONDS);
    }

    private synchronized void delivered(FilerNode from) {
        pending.merge(from, -1, Integer::sum);
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
