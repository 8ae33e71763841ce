package io.tidemark.devtools.bench;

import io.tidemark.emulator.FilerEmulator;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;

/**
 * What the populator benchmark's events are on the filers: how many each recorded under the buckets directory (what
 * the populator must publish, exactly), the newest stamp, and up to which stamp the populator's rate is steady.
 *
 * @param steadyUntilTsNs with several filers, the newest stamp more than the merge's skew margin before the last:
 *                        the merge lets later events go only once the filers fall quiet, a wait of the log's end that
 *                        is not the populator's rate. With one filer, the last stamp.
 */
record Workload(long expected, long lastTsNs, long steadyUntilTsNs, List<LocalLogsDrain.Filer> filers,
                String perFiler) {

    static Workload of(LocalCluster cluster, Duration maxClockSkew) {
        FilerEmulator emulator = cluster.emulator();
        List<Long> stamps = new ArrayList<>();
        List<LocalLogsDrain.Filer> filers = new ArrayList<>();
        StringJoiner perFiler = new StringJoiner(" + ");
        for (int i = 0; i < emulator.filerCount(); i++) {
            List<SubscribeMetadataResponse> own = emulator.filer(i).events().stream()
                    .filter(e -> e.getDirectory().startsWith("/buckets")).toList();
            own.forEach(e -> stamps.add(e.getTsNs()));
            filers.add(new LocalLogsDrain.Filer(emulator.filerAddress(i),
                    own.isEmpty() ? 0 : own.get(own.size() - 1).getTsNs()));
            perFiler.add(String.valueOf(own.size()));
        }
        long last = stamps.stream().mapToLong(Long::longValue).max().orElse(0);
        long steadyUntil = last;
        if (emulator.filerCount() > 1) {
            long margin = last - maxClockSkew.toNanos();
            steadyUntil = stamps.stream().mapToLong(Long::longValue).filter(ts -> ts <= margin).max().orElse(last);
        }
        return new Workload(stamps.size(), last, steadyUntil, filers, perFiler.toString());
    }
}
