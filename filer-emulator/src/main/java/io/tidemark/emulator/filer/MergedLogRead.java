package io.tidemark.emulator.filer;

import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.util.List;

/**
 * A read of the persisted logs, as a filer reads {@code /topics/.system/log}: every filer's files, on a shared store,
 * merged by {@code ts_ns} (ties: in filer order), from after {@code since_ns} (exclusive, as on disk) up to what each
 * log held when the read began, or when it was last {@link #extend extended}. With one filer it is that filer's log.
 */
final class MergedLogRead {

    private final List<MetaLog> logs;
    private final int[] next;
    private final int[] end;

    MergedLogRead(List<MetaLog> logs, long sinceNs) {
        this.logs = logs;
        this.next = new int[logs.size()];
        this.end = new int[logs.size()];
        for (int i = 0; i < logs.size(); i++) {
            next[i] = logs.get(i).firstAfter(sinceNs);
            end[i] = logs.get(i).size();
        }
    }

    /**
     * A read of what each log has flushed: log {@code i}'s events stamped before {@code flushedBeforeNs[i]}, after
     * {@code sinceNs}.
     */
    MergedLogRead(List<MetaLog> logs, long sinceNs, long[] flushedBeforeNs) {
        this(logs, sinceNs);
        for (int i = 0; i < logs.size(); i++) {
            end[i] = Math.max(next[i], logs.get(i).firstAtOrAfter(flushedBeforeNs[i]));
        }
    }

    /** Reads on up to what the logs hold now: what was flushed while the read ran. */
    void extend() {
        for (int i = 0; i < logs.size(); i++) {
            end[i] = logs.get(i).size();
        }
    }

    /** The next event in ts order, or {@code null} when the read is at its end. */
    SubscribeMetadataResponse peek() {
        int at = head();
        return at < 0 ? null : logs.get(at).get(next[at]);
    }

    void advance() {
        int at = head();
        if (at >= 0) {
            next[at]++;
        }
    }

    boolean atEnd() {
        return head() < 0;
    }

    private int head() {
        int best = -1;
        long bestTs = 0;
        for (int i = 0; i < logs.size(); i++) {
            // Purged under the reader: it goes on with what is left, as a filer's purged log files are gone.
            next[i] = Math.max(next[i], logs.get(i).firstIndex());
            if (next[i] < end[i]) {
                long ts = logs.get(i).get(next[i]).getTsNs();
                if (best < 0 || ts < bestTs) {
                    best = i;
                    bestTs = ts;
                }
            }
        }
        return best;
    }
}
