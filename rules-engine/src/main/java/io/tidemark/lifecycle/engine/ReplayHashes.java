package io.tidemark.lifecycle.engine;

import io.tidemark.lifecycle.hash.HashWriter;
import io.tidemark.lifecycle.hash.Utf8Order;
import java.time.Duration;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The 32-byte hashes SeaweedFS keeps beside each replay cursor. A change of either one means the timers
 * armed so far were armed under other rules, and a recovery walk is needed.
 */
public final class ReplayHashes {

    public static final int LENGTH = 32;

    private static final Comparator<ReplayAction> ORDER = Comparator
            .comparing(ReplayAction::ruleHash)
            .thenComparingInt(a -> a.kind().number())
            .thenComparing(ReplayAction::bucket, Utf8Order.STRINGS);

    private ReplayHashes() {
    }

    /**
     * Hashes the content of every timer-driven action: bucket, rule hash, kind and delay. The caller passes
     * only actions of enabled rules; actions of other kinds are ignored.
     */
    public static byte[] replayContentHash(Collection<ReplayAction> actions) {
        return hash(actions.stream().filter(a -> a.kind().timerDriven()).toList(), true);
    }

    /**
     * Hashes the timer-driven actions that a meta-log retention window too short for their delay pushes
     * from replay to the walker (and those with no delay at all), so a change of retention is noticed too.
     */
    public static byte[] promotedHash(Collection<ReplayAction> actions, Duration retentionWindow) {
        return hash(actions.stream()
                .filter(a -> a.kind().timerDriven())
                .filter(a -> a.ttl().isZero() || a.ttl().compareTo(retentionWindow) > 0)
                .toList(), false);
    }

    private static byte[] hash(List<ReplayAction> actions, boolean withDelay) {
        if (actions.isEmpty()) {
            return new byte[LENGTH];
        }
        HashWriter w = new HashWriter();
        for (ReplayAction a : actions.stream().sorted(ORDER).toList()) {
            w.stringField(0x01, a.bucket())
                    .bytesField(0x02, a.ruleHash().toBytes())
                    .signedField(0x03, a.kind().number());
            if (withDelay) {
                w.signedField(0x04, a.ttl().toNanos());
            }
        }
        return w.finish();
    }
}
