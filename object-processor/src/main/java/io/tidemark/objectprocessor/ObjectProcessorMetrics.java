package io.tidemark.objectprocessor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/** The object processor's meters, and the figures of its status line. */
public final class ObjectProcessorMetrics {

    private final MeterRegistry registry;
    private final Map<String, Counter> tasks = new ConcurrentHashMap<>();
    private final Map<String, Counter> attempts = new ConcurrentHashMap<>();
    private final Map<String, Counter> deadLetters = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> finishedByOutcome = new ConcurrentHashMap<>();
    private final Counter transportRetries;
    private final Counter invalid;
    private final Timer rateLimitWait;
    private final Timer latency;
    private final Timer latencyFailed;
    private final MultiGauge held;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicInteger partitions = new AtomicInteger();
    private final LongAdder parked = new LongAdder();
    private final Map<String, Counter> walks = new ConcurrentHashMap<>();
    private final LongAdder walksRequested = new LongAdder();
    private final Counter offsetsLost;
    private volatile double rate;
    private volatile double oldestCall;
    private final AtomicInteger pausedTasks = new AtomicInteger();
    private volatile boolean controlsKnown = true;
    private volatile boolean clusterPaused;

    public ObjectProcessorMetrics(MeterRegistry registry) {
        this.registry = registry;
        transportRetries = Counter.builder("tidemark.object.processor.transport.retries")
                .description("LifecycleDelete calls repeated after a transport failure").register(registry);
        invalid = Counter.builder("tidemark.object.processor.invalid.tasks")
                .description("Records that were not valid tasks, parked unsent").register(registry);
        rateLimitWait = Timer.builder("tidemark.object.processor.rate.limit.wait")
                .description("Time calls waited for a permit of this instance's rate share").register(registry);
        latency = Timer.builder("tidemark.object.processor.call.latency").tag("result", "answered")
                .publishPercentileHistogram().description("LifecycleDelete call latency").register(registry);
        latencyFailed = Timer.builder("tidemark.object.processor.call.latency").tag("result", "failed")
                .publishPercentileHistogram().description("LifecycleDelete call latency").register(registry);
        held = MultiGauge.builder("tidemark.object.processor.partition.held.seconds")
                .description("Per partition, how long its longest-held object has waited on RETRY_LATER; its "
                        + "committed offset cannot pass that task meanwhile").register(registry);
        Gauge.builder("tidemark.object.processor.in.flight", inFlight, AtomicInteger::get)
                .description("LifecycleDelete calls outstanding").register(registry);
        Gauge.builder("tidemark.object.processor.buffered", buffered, AtomicInteger::get)
                .description("Tasks read and not finished").register(registry);
        Gauge.builder("tidemark.object.processor.assigned.partitions", partitions, AtomicInteger::get)
                .description("object-tasks partitions assigned to this instance").register(registry);
        Gauge.builder("tidemark.object.processor.oldest.call.seconds", this, m -> m.oldestCall)
                .description("How long the oldest task attempt under way has waited for an answer, transport retries "
                        + "included: an unreachable gateway shows here, not as errors").register(registry);
        offsetsLost = Counter.builder("tidemark.object.processor.offsets.lost")
                .description("Partitions whose committed position was no longer in the log (retention deleted "
                        + "unprocessed tasks): the consumer resumed at the oldest task left").register(registry);
        Gauge.builder("tidemark.object.processor.paused.tasks", pausedTasks, AtomicInteger::get)
                .description("Tasks held because the cluster is paused or the controls are unknown")
                .register(registry);
        Gauge.builder("tidemark.object.processor.controls.known", this, m -> m.controlsKnown ? 1 : 0)
                .description("1 while the operators' controls (pause, dry run) are known; 0 holds every task")
                .register(registry);
        Gauge.builder("tidemark.object.processor.cluster.paused", this, m -> m.clusterPaused ? 1 : 0)
                .description("1 while this processor sees the whole cluster paused: a pause has reached it")
                .register(registry);
        Gauge.builder("tidemark.object.processor.rate.share", this, m -> m.rate)
                .description("This instance's share of the group's deletes per second (0: no limit)").register(registry);
    }

    /** A task finished: a gateway outcome (DONE, NOOP_RESOLVED, SKIPPED_OBJECT_LOCK) or NOOP_RULE_CHANGED. */
    void finished(String kind, String outcome) {
        counter(tasks, "tidemark.object.processor.tasks", "Tasks finished, by kind and outcome", kind, outcome)
                .increment();
        finishedByOutcome.computeIfAbsent(outcome, o -> new LongAdder()).increment();
    }

    /** One call's outcome, a gateway outcome or RPC_ERROR. */
    void attempt(String kind, String outcome) {
        counter(attempts, "tidemark.object.processor.attempts", "LifecycleDelete answers, by kind and outcome",
                kind, outcome).increment();
    }

    void parked(String kind, String outcome) {
        counter(deadLetters, "tidemark.object.processor.dlq.records", "Tasks parked in the dead-letter topic",
                kind, outcome).increment();
        parked.increment();
    }

    /** A walk of a task's key asked for after an answer that means "not now". */
    void walkRequested(String outcome) {
        walks.computeIfAbsent(outcome, o -> Counter.builder("tidemark.object.processor.key.walks")
                .tag("outcome", o).description("Walks of a task's key asked for after an answer that means not now "
                        + "(lock, changed entry, unreadable entry), so its expiration is not lost")
                .register(registry)).increment();
        walksRequested.increment();
    }

    public long walksRequested() {
        return walksRequested.sum();
    }

    void offsetsLost(int partitions) {
        offsetsLost.increment(partitions);
    }

    public double offsetsLostCount() {
        return offsetsLost.count();
    }

    void oldestCall(double seconds) {
        oldestCall = seconds;
    }

    void invalid() {
        invalid.increment();
    }

    void transportRetry() {
        transportRetries.increment();
    }

    void rateLimitWait(long nanos) {
        rateLimitWait.record(nanos, TimeUnit.NANOSECONDS);
    }

    void callLatency(long nanos, Throwable error) {
        (error == null ? latency : latencyFailed).record(nanos, TimeUnit.NANOSECONDS);
    }

    void inFlight(int n) {
        inFlight.set(n);
    }

    void buffered(int n) {
        buffered.set(n);
    }

    void paused(int tasks, boolean known, boolean cluster) {
        pausedTasks.set(tasks);
        controlsKnown = known;
        clusterPaused = cluster;
    }

    void partitions(int n) {
        partitions.set(n);
    }

    void rate(double perSecond) {
        rate = perSecond;
    }

    void held(Map<Integer, Duration> byPartition) {
        held.register(byPartition.entrySet().stream()
                .map(e -> MultiGauge.Row.of(Tags.of("partition", String.valueOf(e.getKey())),
                        e.getValue().toMillis() / 1000.0))
                .toList(), true);
    }

    public long finishedCount(String outcome) {
        LongAdder n = finishedByOutcome.get(outcome);
        return n == null ? 0 : n.sum();
    }

    public long parkedCount() {
        return parked.sum();
    }

    /** This instance's share of the group's rate, in deletes per second (0: no limit). */
    public double rateShare() {
        return rate;
    }

    public int assignedPartitions() {
        return partitions.get();
    }

    public String statusLine() {
        return String.format(Locale.ROOT, "object-processor: partitions=%d in-flight=%d buffered=%d done=%d noop=%d "
                        + "rule-changed=%d skipped-lock=%d key-walks=%d parked=%d dry-run=%d paused=%d rate=%.1f/s",
                partitions.get(),
                inFlight.get(), buffered.get(), finishedCount("DONE"), finishedCount("NOOP_RESOLVED"),
                finishedCount(OutcomePolicy.NOOP_RULE_CHANGED), finishedCount("SKIPPED_OBJECT_LOCK"),
                walksRequested.sum(), parked.sum(), finishedCount(OutcomePolicy.DRY_RUN), pausedTasks.get(), rate);
    }

    private Counter counter(Map<String, Counter> cache, String name, String description, String kind, String outcome) {
        String kindTag = kind == null ? "unknown" : kind.toLowerCase(Locale.ROOT);
        return cache.computeIfAbsent(kindTag + "|" + outcome, k -> Counter.builder(name)
                .tags(List.of(io.micrometer.core.instrument.Tag.of("kind", kindTag),
                        io.micrometer.core.instrument.Tag.of("outcome", outcome)))
                .description(description).register(registry));
    }
}
