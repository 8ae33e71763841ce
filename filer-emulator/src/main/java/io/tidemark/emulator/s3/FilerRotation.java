package io.tidemark.emulator.s3;

import io.tidemark.emulator.filer.FilerNode;
import io.tidemark.emulator.filer.FilerStore;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The filer for the gateway's next operation: the store's filers in turn, skipping those that are down, as S3
 * gateways spread over a cluster's filers would. With one filer, always that one.
 */
final class FilerRotation implements Supplier<FilerNode> {

    private final FilerStore store;
    private final AtomicInteger turn = new AtomicInteger();

    FilerRotation(FilerStore store) {
        this.store = store;
    }

    @Override
    public FilerNode get() {
        List<FilerNode> filers = store.filers();
        int start = Math.floorMod(turn.getAndIncrement(), filers.size());
        for (int i = 0; i < filers.size(); i++) {
            FilerNode candidate = filers.get((start + i) % filers.size());
            if (candidate.serving()) {
                return candidate;
            }
        }
        // Every filer is down: the store is still there, and tests that stop them all still write.
        return filers.get(start);
    }
}
