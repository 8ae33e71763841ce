package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketConfig;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.api.MockProcessorContext.CapturedPunctuator;
import org.apache.kafka.streams.processor.Punctuator;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * When fired tasks become visible. The object processor reads {@code object-tasks} read-committed, so a task fired
 * in a tick waits for the stream thread's commit: the processor asks for that commit at once instead of leaving it
 * to the next commit interval, and fires a burst in slices, each committed before the next. (TopologyTestDriver
 * commits after everything and runs every punctuator together, so it can tell neither.)
 */
class ReplayProcessorFiringTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final String EXPIRE_1_DAY = """
            <LifecycleConfiguration><Rule><ID>expire</ID><Filter><Prefix></Prefix></Filter><Status>Enabled</Status>\
            <Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>""";

    private final TidemarkConfig config = new TidemarkConfig(Map.of("shard.bits", "2", "lifecycle.day.seconds", "10",
            "lifecycle.test.mode", "true", "lifecycle.due.policy", "exact", "kafka.streams.commit.interval.ms", "60000",
            "replay-streams.max.fired.per.tick", "2"));
    private final TopicRegistry topics = TopicRegistry.from(config);
    private MockProcessorContext<String, Object> context;
    private ReplayProcessor processor;
    private Punctuator tick;

    /** One stream task: a processor on its own context and in-memory stores, with bucket b's rules. */
    private record Task(MockProcessorContext<String, Object> context, ReplayProcessor processor, Punctuator tick) {
    }

    private Task task(ReplayTopology.Params params) {
        MockProcessorContext<String, Object> ctx = new MockProcessorContext<>();
        store(ctx, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TimerStore.TIMERS), Serdes.Bytes(),
                Serdes.ByteArray()));
        store(ctx, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TimerStore.INDEX), Serdes.String(),
                Serdes.Bytes()));
        store(ctx, Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TimerStore.COUNTS), Serdes.String(),
                Serdes.Long()));
        KeyValueStore<String, byte[]> configs = store(ctx, Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(ReplayTopology.BUCKET_CONFIGS_STORE), Serdes.String(), Serdes.ByteArray()));
        configs.put("b", topics.bucketConfigs().valueSerde().serializer().serialize(topics.bucketConfigs().name(),
                new BucketConfig("b", "Off", false, EXPIRE_1_DAY, Integer.toHexString(EXPIRE_1_DAY.hashCode()),
                        null, null)));
        ctx.setCurrentSystemTimeMs(T0.toEpochMilli());
        ReplayProcessor p = new ReplayProcessor(params);
        p.init(ctx);
        return new Task(ctx, p, ctx.scheduledPunctuators().get(0).getPunctuator());
    }

    private static <K, V> KeyValueStore<K, V> store(MockProcessorContext<String, Object> ctx,
                                                    StoreBuilder<KeyValueStore<K, V>> builder) {
        KeyValueStore<K, V> store = builder.withLoggingDisabled().build();
        store.init(ctx.getStateStoreContext(), store);
        ctx.addStateStore(store);
        return store;
    }

    private static void written(ReplayProcessor processor, String... keys) {
        for (String key : keys) {
            processor.process(new Record<>(ShardPartitioner.key("b", key),
                    Events.written("b", Events.object(key, T0, 42, Map.of()), T0), T0.toEpochMilli()));
        }
    }

    @BeforeEach
    void init() {
        Task task = task(ReplayTopology.Params.from(config, new ReplayStreamsMetrics(new SimpleMeterRegistry())));
        context = task.context();
        processor = task.processor();
        tick = task.tick();
    }

    @Test
    void shouldRequestACommitAsSoonAsATickHasFiredATask() {
        written(processor, "a");
        context.resetCommit();

        tick.punctuate(T0.plusSeconds(5).toEpochMilli());
        assertThat(context.forwarded()).as("nothing due yet").isEmpty();
        assertThat(context.committed()).as("a tick that fired nothing asks for nothing").isFalse();

        tick.punctuate(T0.plusSeconds(11).toEpochMilli());
        assertThat(context.forwarded()).hasSize(1);
        assertThat(context.committed()).as("the fired task is made visible without waiting for the commit interval")
                .isTrue();
    }

    @Test
    void shouldFireALeftOverBurstInCommittedSlicesOnCatchUpTicksAndStopThemOnceItIsDrained() {
        written(processor, "a", "b", "c", "d", "e");
        long due = T0.plusSeconds(11).toEpochMilli();

        tick.punctuate(due);
        assertThat(context.forwarded()).as("a tick's worth: two").hasSize(2);
        assertThat(context.scheduledPunctuators()).hasSize(2);
        CapturedPunctuator catchUp = context.scheduledPunctuators().get(1);
        assertThat(catchUp.getInterval()).isEqualTo(ReplayProcessor.CATCH_UP_INTERVAL);

        context.resetForwards();
        context.resetCommit();
        catchUp.getPunctuator().punctuate(due + 10);
        assertThat(context.forwarded()).hasSize(2);
        assertThat(context.committed()).as("each slice is committed before the next").isTrue();
        assertThat(catchUp.cancelled()).isFalse();

        context.resetForwards();
        catchUp.getPunctuator().punctuate(due + 20);
        assertThat(context.forwarded()).as("the last one").hasSize(1);
        assertThat(catchUp.cancelled()).as("nothing left over: back to the punctuation interval").isTrue();

        tick.punctuate(due + 1_000);
        assertThat(context.scheduledPunctuators()).as("no catch-up without a backlog").hasSize(2);
    }

    /**
     * Streams runs every punctuator that has come due in one pass, with one timestamp: a task's regular, catch-up and
     * one-off ticks can meet there. Each firing is bounded, but three in one loop would be three bounds in one
     * transaction.
     */
    @Test
    void shouldFireOneSliceALoopWhenSeveralOfItsTicksComeDueTogether() {
        written(processor, "a", "b", "c", "d", "e");
        long due = T0.plusSeconds(11).toEpochMilli();

        tick.punctuate(due);
        CapturedPunctuator catchUp = context.scheduledPunctuators().get(1);
        context.resetForwards();
        catchUp.getPunctuator().punctuate(due);
        assertThat(context.forwarded()).as("the catch-up tick in the same pass as the regular one").isEmpty();
        assertThat(catchUp.cancelled()).isFalse();

        catchUp.getPunctuator().punctuate(due + 10);
        assertThat(context.forwarded()).as("the next loop's").hasSize(2);
    }

    @Test
    void shouldShareTheThreadsFiringTimeAmongTheTasksItRuns() {
        // Each reading of the clock moves it 5 ms; the thread may fire for 40 ms a tick, a burst's first slice 25 ms.
        AtomicLong nanos = new AtomicLong();
        ReplayTopology.Params params = ReplayTopology.Params.from(new TidemarkConfig(Map.of("shard.bits", "2",
                        "lifecycle.day.seconds", "10", "lifecycle.test.mode", "true",
                        "lifecycle.due.policy", "exact",
                        "replay-streams.max.fire.time.per.tick.ms", "40")),
                new ReplayStreamsMetrics(new SimpleMeterRegistry())).withNanoTime(() -> nanos.getAndAdd(5_000_000L));
        long due = T0.plusSeconds(11).toEpochMilli();
        String[] keys = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p"};

        Task alone = task(params);
        written(alone.processor(), keys);
        alone.tick().punctuate(due);
        assertThat(alone.context().forwarded()).as("the whole first slice, 25 ms").hasSize(5);
        alone.processor().close();

        Task first = task(params);
        Task second = task(params);
        written(first.processor(), keys);
        written(second.processor(), keys);
        first.tick().punctuate(due);
        second.tick().punctuate(due);
        assertThat(first.context().forwarded()).as("half of it").hasSize(2);
        assertThat(second.context().forwarded()).as("the other half").hasSize(2);
        assertThat(first.context().committed()).isTrue();

        second.processor().close();
        first.context().resetForwards();
        first.tick().punctuate(due + 1_000);
        assertThat(first.context().forwarded()).as("its second slice is the thread's whole 40 ms, now that it runs "
                + "alone").hasSize(8);
    }

    @Test
    void shouldFireTheFirstSliceOfABurstShortAndLengthenTheSlicesWhileItsBacklogLasts() {
        // Each reading of the clock moves it 25 ms; the thread may fire for 400 ms a tick once a burst is under way.
        AtomicLong nanos = new AtomicLong();
        Task task = task(ReplayTopology.Params.from(new TidemarkConfig(Map.of("shard.bits", "2",
                        "lifecycle.day.seconds", "10", "lifecycle.test.mode", "true",
                        "lifecycle.due.policy", "exact",
                        "replay-streams.max.fire.time.per.tick.ms", "400")),
                new ReplayStreamsMetrics(new SimpleMeterRegistry())).withNanoTime(() -> nanos.getAndAdd(25_000_000L)));
        String[] keys = new String[60];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = "k" + i;
        }
        written(task.processor(), keys);
        long due = T0.plusSeconds(11).toEpochMilli();

        task.tick().punctuate(due);
        assertThat(task.context().forwarded()).as("25 ms: the first tasks are committed and visible within a few "
                + "milliseconds of the due instant").hasSize(1);
        assertThat(task.context().committed()).isTrue();
        CapturedPunctuator catchUp = task.context().scheduledPunctuators().get(1);
        int[] expected = {2, 4, 8, 16, 16, 13};
        for (int i = 0; i < expected.length; i++) {
            task.context().resetForwards();
            catchUp.getPunctuator().punctuate(due + 10L * (i + 1));
            assertThat(task.context().forwarded()).as("catch-up tick %d: twice the slice before, up to the bound",
                    i + 1).hasSize(expected[i]);
        }
        assertThat(catchUp.cancelled()).as("drained").isTrue();

        written(task.processor(), "x", "y", "z");
        task.context().resetForwards();
        task.tick().punctuate(T0.plusSeconds(30).toEpochMilli());
        assertThat(task.context().forwarded()).as("the next burst starts short again").hasSize(1);
    }

    /**
     * Issue 27 item 3: a timer whose firing fails is hit first by every tick (the scan starts at the earliest due
     * key): left there, nothing behind it in its task would ever fire.
     */
    @Test
    void shouldMoveATimerWhoseFiringFailsAsideAndFireTheRest() {
        TimerStore store = new TimerStore(context.getStateStore(TimerStore.TIMERS),
                context.getStateStore(TimerStore.INDEX), context.getStateStore(TimerStore.COUNTS));
        store.arm(new ReplayTimer("b/odd#NOT_A_KIND", "b", "odd", "odd", "", "NOT_A_KIND", "expire", "00", T0,
                null, 1, Map.of(), T0, null, null, 1));
        written(processor, "a");

        // A tick's firing time is bounded: on a loaded machine the failure's handling may use up the first one.
        for (int second = 11; second < 16 && context.forwarded().size() < 3; second++) {
            tick.punctuate(T0.plusSeconds(second).toEpochMilli());
        }

        assertThat(context.forwarded()).extracting(f -> f.childName().orElse(""))
                .containsExactlyInAnyOrder(ReplayTopology.DEAD_TIMERS_SINK, ReplayTopology.BUCKET_TASKS_SINK,
                        ReplayTopology.OBJECT_TASKS_SINK);
        assertThat(context.forwarded()).filteredOn(f -> f.childName().orElse("").equals(
                ReplayTopology.DEAD_TIMERS_SINK)).singleElement().satisfies(f -> {
                    assertThat(f.record().key()).isEqualTo("b/odd#NOT_A_KIND");
                    assertThat(new String(f.record().headers().lastHeader("tidemark.reason").value(),
                            java.nio.charset.StandardCharsets.UTF_8)).contains("its firing failed");
                });
        // Issue 43 item 6: a kind its id does not name (no version of Tidemark writes one) leaves only a walk of the
        // whole bucket to find the object again.
        assertThat(context.forwarded()).filteredOn(f -> f.childName().orElse("").equals(
                ReplayTopology.BUCKET_TASKS_SINK)).singleElement().satisfies(f -> {
                    io.tidemark.messages.BucketTask walk = (io.tidemark.messages.BucketTask) f.record().value();
                    assertThat(f.record().key()).isEqualTo("b");
                    assertThat(walk.details().mode()).isEqualTo(io.tidemark.messages.BucketTask.Mode.recovery);
                    assertThat(walk.details().prefix()).isEmpty();
                });
        context.resetForwards();
        tick.punctuate(T0.plusSeconds(20).toEpochMilli());
        assertThat(context.forwarded()).as("moved aside: not met again").isEmpty();
    }

    @Test
    void shouldMoveATimerThatCannotBeDecodedAsideAndFireTheRest() {
        KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]> raw = context.getStateStore(TimerStore.TIMERS);
        raw.put(TimerStore.key(T0, "b/broken#EXPIRATION_DAYS"), new byte[] {1, (byte) 0xFF});
        written(processor, "a");

        for (int second = 11; second < 16 && context.forwarded().size() < 3; second++) {
            tick.punctuate(T0.plusSeconds(second).toEpochMilli());
        }

        assertThat(context.forwarded()).extracting(f -> f.childName().orElse(""))
                .containsExactlyInAnyOrder(ReplayTopology.DEAD_TIMERS_SINK, ReplayTopology.BUCKET_TASKS_SINK,
                        ReplayTopology.OBJECT_TASKS_SINK);
        assertThat(raw.get(TimerStore.key(T0, "b/broken#EXPIRATION_DAYS"))).isNull();
        assertThat(context.forwarded()).filteredOn(f -> f.childName().orElse("").equals(
                ReplayTopology.BUCKET_TASKS_SINK)).singleElement().satisfies(f -> assertThat(
                        ((io.tidemark.messages.BucketTask) f.record().value()).details().prefix()).isEqualTo("broken"));
    }

    /**
     * Streams revives a task (after a migration or a corrupted-task recovery) by initialising the same processor
     * again on a new context: what it scheduled, and when it last ticked, belonged to the old one.
     */
    @Test
    void shouldStartAfreshWhenItsTaskIsRevived() {
        written(processor, "a", "b", "c", "d", "e");
        long due = T0.plusSeconds(11).toEpochMilli();
        tick.punctuate(due);
        assertThat(context.forwarded()).hasSize(2);
        assertThat(context.scheduledPunctuators()).as("a catch-up for the rest").hasSize(2);

        MockProcessorContext<String, Object> revived = new MockProcessorContext<>();
        for (String name : List.of(TimerStore.TIMERS, TimerStore.INDEX, TimerStore.COUNTS,
                ReplayTopology.BUCKET_CONFIGS_STORE)) {
            revived.addStateStore(context.getStateStore(name));
        }
        revived.setCurrentSystemTimeMs(due);
        processor.init(revived);
        revived.scheduledPunctuators().get(0).getPunctuator().punctuate(due);

        assertThat(revived.forwarded()).as("its first tick fires, though at the old context's last timestamp")
                .hasSize(2);
        assertThat(revived.scheduledPunctuators()).as("and schedules its own catch-up").hasSize(2);
    }

    @Test
    void shouldWakeUpAtTheDueInstantOfATimerFallingDueBetweenTwoTicks() {
        written(processor, "a");
        long due = T0.plusSeconds(10).toEpochMilli();

        context.setCurrentSystemTimeMs(due - 5_000);
        tick.punctuate(due - 5_000);
        assertThat(context.scheduledPunctuators()).as("due after the next regular tick: that tick will do").hasSize(1);

        context.setCurrentSystemTimeMs(due - 400);
        tick.punctuate(due - 400);
        assertThat(context.forwarded()).isEmpty();
        assertThat(context.scheduledPunctuators()).hasSize(2);
        CapturedPunctuator wakeUp = context.scheduledPunctuators().get(1);
        assertThat(wakeUp.getInterval()).as("at the due instant, not a second later").isEqualTo(Duration.ofMillis(400));

        context.setCurrentSystemTimeMs(due);
        wakeUp.getPunctuator().punctuate(due);
        assertThat(context.forwarded()).hasSize(1);
        assertThat(context.committed()).isTrue();
        assertThat(wakeUp.cancelled()).as("a one-off").isTrue();
    }
}
