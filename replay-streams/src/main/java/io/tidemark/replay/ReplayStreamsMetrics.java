package io.tidemark.replay;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/** Replay-streams' meters, and the figures of its status line. Shared by every stream task of one instance. */
public final class ReplayStreamsMetrics {

    private static final String MOVED_ASIDE = "tidemark.replay.timers.moved.aside";
    private static final String MOVED_ASIDE_TAG = "reason";
    private static final String MOVED_ASIDE_REASON = "unreadable-or-failed";
    private static final String MOVED_ASIDE_DESCRIPTION = "Timers that could not be decoded or fired, moved to "
            + "replay-streams.dlq so the rest of their task fires (a recovery walk is asked for in place of each)";

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> totals = new ConcurrentHashMap<>();
    private final Map<Integer, Map<String, Long>> pendingByPartition = new ConcurrentHashMap<>();
    private final Set<String> pendingKinds = ConcurrentHashMap.newKeySet();
    private final Timer dueToEmitted;

    public ReplayStreamsMetrics(MeterRegistry registry) {
        this.registry = registry;
        dueToEmitted = Timer.builder("tidemark.replay.due.to.emitted").publishPercentileHistogram()
                .description("From a timer's due instant to the emission of its object task").register(registry);
        Gauge.builder("tidemark.replay.timers.pending", this, ReplayStreamsMetrics::pending)
                .description("Timers armed and not yet fired (this instance's tasks)").register(registry);
        // Exported at 0 from the start: an alert on its increase must see the first timer moved aside, and a series
        // that appears at 1 has no increase to show.
        counter(MOVED_ASIDE, MOVED_ASIDE_TAG, MOVED_ASIDE_REASON, MOVED_ASIDE_DESCRIPTION);
    }

    void armed(String kind) {
        count("tidemark.replay.timers.armed", "kind", kind, "Timers armed or re-armed, by kind");
    }

    void cancelled() {
        count("tidemark.replay.timers.cancelled", "reason", "event", "Timers cancelled by an event");
    }

    void fired(String kind, Duration late) {
        count("tidemark.replay.timers.fired", "kind", kind, "Timers fired as object tasks, by kind");
        dueToEmitted.record(late.isNegative() ? Duration.ZERO : late);
    }

    void retimed(String kind) {
        count("tidemark.replay.timers.retimed", "kind", kind, "Due timers moved later because the rules changed");
    }

    void dropped(String reason) {
        count("tidemark.replay.timers.dropped", "reason", reason, "Due timers dropped at the firing re-check");
    }

    void tickCut() {
        count("tidemark.replay.ticks.cut", "reason", "time", "Ticks that left due timers for the next tick, out of time");
    }

    void walkRequested(String reason) {
        count("tidemark.replay.walks.requested", "reason", reason,
                "Recovery walks requested: of one key because one event cannot tell a version's role (an older "
                        + "version latest again, a version no timer knows updated), or in place of a timer moved "
                        + "aside (moved-aside: of its key, or of its whole bucket for an upload or a corrupt id)");
    }

    void localStateDiscarded(String reason) {
        count("tidemark.replay.local.state.discarded", "reason", reason,
                "Local state found not to fit the Kafka cluster or its topics at start, discarded and rebuilt");
    }

    void movedAside() {
        count(MOVED_ASIDE, MOVED_ASIDE_TAG, MOVED_ASIDE_REASON, MOVED_ASIDE_DESCRIPTION);
    }

    void skipped(String reason) {
        count("tidemark.replay.records.skipped", "reason", reason, "Records that arm nothing, by reason");
    }

    /** A task's pending timers by kind, as its store counts them. */
    void pending(int partition, Map<String, Long> byKind) {
        pendingByPartition.put(partition, Map.copyOf(byKind));
        for (String kind : byKind.keySet()) {
            if (pendingKinds.add(kind)) {
                Gauge.builder("tidemark.replay.timers.pending.by.kind", this, m -> m.pendingByKind()
                                .getOrDefault(kind, 0L)).tag("kind", kind.toLowerCase(Locale.ROOT))
                        .description("Timers armed and not yet fired, by kind (this instance's tasks)")
                        .register(registry);
            }
        }
    }

    void released(int partition) {
        pendingByPartition.remove(partition);
    }

    public long total(String name, String tag) {
        LongAdder n = totals.get(name + "|" + tag);
        return n == null ? 0 : n.sum();
    }

    /** The longest a task was emitted after its timer's due instant, in seconds. */
    public double maxLateSeconds() {
        return dueToEmitted.max(TimeUnit.SECONDS);
    }

    public long pending() {
        return pendingByPartition.values().stream().flatMap(m -> m.values().stream()).mapToLong(Long::longValue).sum();
    }

    public Map<String, Long> pendingByKind() {
        Map<String, Long> byKind = new TreeMap<>();
        pendingByPartition.values().forEach(m -> m.forEach((kind, n) -> byKind.merge(kind, n, Long::sum)));
        return byKind;
    }

    public String statusLine(String state) {
        long fired = totals.entrySet().stream().filter(e -> e.getKey().startsWith("tidemark.replay.timers.fired|"))
                .mapToLong(e -> e.getValue().sum()).sum();
        long dropped = totals.entrySet().stream().filter(e -> e.getKey().startsWith("tidemark.replay.timers.dropped|"))
                .mapToLong(e -> e.getValue().sum()).sum();
        return String.format(Locale.ROOT, "replay-streams: state=%s pending=%d fired=%d dropped=%d max-late=%.1fs",
                state, pending(), fired, dropped, maxLateSeconds());
    }

    private void count(String name, String tagKey, String tagValue, String description) {
        String tag = tagValue.toLowerCase(Locale.ROOT);
        counter(name, tagKey, tag, description).increment();
        totals.computeIfAbsent(name + "|" + tag, k -> new LongAdder()).increment();
    }

    private Counter counter(String name, String tagKey, String tag, String description) {
        return counters.computeIfAbsent(name + "|" + tag, k -> Counter.builder(name).tag(tagKey, tag)
                .description(description).register(registry));
    }
}
