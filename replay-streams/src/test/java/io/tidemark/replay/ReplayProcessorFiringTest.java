package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
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
            "lifecycle.due.policy", "exact", "kafka.streams.commit.interval.ms", "60000",
            "replay-streams.max.fired.per.tick", "2"));
    private final TopicRegistry topics = TopicRegistry.from(config);
    private final MockProcessorContext<String, Object> context = new MockProcessorContext<>();
    private final ReplayProcessor processor = new ReplayProcessor(
            ReplayTopology.Params.from(config, new ReplayMetrics(new SimpleMeterRegistry())));
    private Punctuator tick;

    @BeforeEach
    void init() {
        store(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TimerStore.TIMERS), Serdes.Bytes(),
                new TimerCodec()));
        store(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TimerStore.INDEX), Serdes.String(),
                Serdes.Bytes()));
        store(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(TimerStore.COUNTS), Serdes.String(),
                Serdes.Long()));
        KeyValueStore<String, byte[]> configs = store(Stores.keyValueStoreBuilder(
                Stores.inMemoryKeyValueStore(ReplayTopology.BUCKET_CONFIGS_STORE), Serdes.String(), Serdes.ByteArray()));
        configs.put("b", topics.bucketConfigs().valueSerde().serializer().serialize(topics.bucketConfigs().name(),
                new BucketConfig("b", "Off", false, EXPIRE_1_DAY, Integer.toHexString(EXPIRE_1_DAY.hashCode()),
                        null, null)));
        context.setCurrentSystemTimeMs(T0.toEpochMilli());
        processor.init(context);
        tick = context.scheduledPunctuators().get(0).getPunctuator();
    }

    private <K, V> KeyValueStore<K, V> store(StoreBuilder<KeyValueStore<K, V>> builder) {
        KeyValueStore<K, V> store = builder.withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        context.addStateStore(store);
        return store;
    }

    @Test
    void shouldRequestACommitAsSoonAsATickHasFiredATask() {
        MetaLogRecord written = Events.written("b", Events.object("a", T0, 42, Map.of()), T0);
        processor.process(new Record<>(ShardPartitioner.key("b", "a"), written, T0.toEpochMilli()));
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
        for (String key : List.of("a", "b", "c", "d", "e")) {
            processor.process(new Record<>(ShardPartitioner.key("b", key),
                    Events.written("b", Events.object(key, T0, 42, Map.of()), T0), T0.toEpochMilli()));
        }
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
}
