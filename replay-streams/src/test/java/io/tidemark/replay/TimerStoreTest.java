package io.tidemark.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.Map;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;

/** The timer store's own bookkeeping, on in-memory stores. */
class TimerStoreTest {

    private static final Instant T0 = Instant.parse("2026-11-24T00:00:00Z");

    private final MockProcessorContext<String, Object> context = new MockProcessorContext<>();
    private final KeyValueStore<Bytes, byte[]> timers = store(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(TimerStore.TIMERS), Serdes.Bytes(), Serdes.ByteArray()));
    private final KeyValueStore<String, Bytes> index = store(Stores.keyValueStoreBuilder(
            Stores.inMemoryKeyValueStore(TimerStore.INDEX), Serdes.String(), Serdes.Bytes()));

    private <K, V> KeyValueStore<K, V> store(
            org.apache.kafka.streams.state.StoreBuilder<KeyValueStore<K, V>> builder) {
        KeyValueStore<K, V> store = builder.withLoggingDisabled().build();
        store.init(context.getStateStoreContext(), store);
        return store;
    }

    private KeyValueStore<String, Long> counts(String name) {
        return store(Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore(name), Serdes.String(), Serdes.Long()));
    }

    private static ReplayTimer timer(String id, String kind, Instant due) {
        return new ReplayTimer(id, "b", id, id, "", kind, "r", "h", due, null, 1, Map.of(), T0, null, null, 1);
    }

    /** Timers armed before the counts store existed (an upgrade): the counts are taken from them once. */
    @Test
    void shouldCountTheTimersAlreadyThereWhenTheCountsStoreIsNew() {
        TimerStore before = new TimerStore(timers, index, counts("first-counts"));
        before.arm(timer("a", "EXPIRATION_DAYS", T0.plusSeconds(10)));
        before.arm(timer("b", "EXPIRATION_DAYS", T0.plusSeconds(20)));
        before.arm(timer("u", "ABORT_MPU", T0.plusSeconds(30)));

        TimerStore upgraded = new TimerStore(timers, index, counts("new-counts"));
        assertThat(upgraded.pendingByKind()).containsExactlyInAnyOrderEntriesOf(
                Map.of("EXPIRATION_DAYS", 2L, "ABORT_MPU", 1L));

        upgraded.cancel("a");
        upgraded.arm(timer("u", "ABORT_MPU", T0.plusSeconds(40)));
        assertThat(upgraded.pendingByKind()).as("a cancel and a replacement")
                .containsExactlyInAnyOrderEntriesOf(Map.of("EXPIRATION_DAYS", 1L, "ABORT_MPU", 1L));
        assertThat(upgraded.cancel("a")).as("cancelled twice counts once").isFalse();
        assertThat(upgraded.pendingByKind()).containsEntry("EXPIRATION_DAYS", 1L);
    }

    @Test
    void shouldReplaceATimerReArmedAtTheSameOrAnotherDueInstantAndCountItOnce() {
        TimerStore store = new TimerStore(timers, index, counts("counts"));
        store.arm(timer("a", "EXPIRATION_DAYS", T0.plusSeconds(10)));
        store.arm(timer("a", "EXPIRATION_DAYS", T0.plusSeconds(10)));
        store.arm(timer("a", "EXPIRATION_DAYS", T0.plusSeconds(30)));

        assertThat(store.pendingByKind()).containsExactlyEntriesOf(Map.of("EXPIRATION_DAYS", 1L));
        assertThat(store.due(T0.plusSeconds(20), 10)).as("the earlier instant holds nothing any more").isEmpty();
        assertThat(store.due(T0.plusSeconds(30), 10)).extracting(d -> d.timer().dueAt())
                .containsExactly(T0.plusSeconds(30));
        assertThat(timers.approximateNumEntries()).isEqualTo(1);
    }

    /**
     * The due scan starts where the last one found its first timer, not at the epoch (fired timers leave tombstones a
     * scan from the epoch walks through); a timer armed below that point must still be found.
     */
    @Test
    void shouldFindATimerArmedBelowWhereTheLastScanStarted() {
        TimerStore store = new TimerStore(timers, index, counts("counts"));
        store.arm(timer("a", "EXPIRATION_DAYS", T0.plusSeconds(10)));
        store.arm(timer("b", "EXPIRATION_DAYS", T0.plusSeconds(20)));
        assertThat(store.due(T0.plusSeconds(15), 10)).extracting(d -> d.timer().timerId()).containsExactly("a");
        store.cancel("a");
        assertThat(store.due(T0.plusSeconds(15), 10)).isEmpty();

        store.arm(timer("c", "EXPIRATION_DAYS", T0.plusSeconds(5)));

        assertThat(store.due(T0.plusSeconds(25), 10)).extracting(d -> d.timer().timerId()).containsExactly("c", "b");
    }

    @Test
    void shouldRemoveATimerReadFromTheStoreWithItsIndexEntryAndCount() {
        TimerStore store = new TimerStore(timers, index, counts("counts"));
        store.arm(timer("a", "EXPIRATION_DAYS", T0.plusSeconds(10).plusMillis(7)));
        store.arm(timer("b", "EXPIRATION_DAYS", T0.plusSeconds(20)));

        ReplayTimer due = store.due(T0.plusSeconds(15), 10).get(0).timer();
        store.remove(due);

        assertThat(store.get("a")).isEmpty();
        assertThat(index.get("a")).isNull();
        assertThat(store.due(T0.plusSeconds(25), 10)).extracting(d -> d.timer().timerId()).containsExactly("b");
        assertThat(store.pendingByKind()).containsExactlyEntriesOf(Map.of("EXPIRATION_DAYS", 1L));
        assertThat(store.cancel("a")).as("nothing left to cancel").isFalse();
    }

    /** A value that cannot be decoded is handed out as its key and bytes, and removed by its key alone. */
    @Test
    void shouldHandOutAnUnreadableTimerAsItsBytesAndRemoveItByItsKey() {
        TimerStore store = new TimerStore(timers, index, counts("counts"));
        store.arm(timer("b/k#EXPIRATION_DAYS", "EXPIRATION_DAYS", T0.plusSeconds(10)));
        store.arm(timer("b/j#EXPIRATION_DAYS", "EXPIRATION_DAYS", T0.plusSeconds(20)));
        Bytes broken = TimerStore.key(T0.plusSeconds(10), "b/k#EXPIRATION_DAYS");
        timers.put(broken, new byte[] {1, (byte) 0xFF, (byte) 0xFF});

        var due = store.due(T0.plusSeconds(25), 10);
        assertThat(due).hasSize(2);
        assertThat(due.get(0).timer()).isNull();
        assertThat(due.get(0).error()).contains("cannot be decoded");
        assertThat(due.get(1).timer().timerId()).isEqualTo("b/j#EXPIRATION_DAYS");
        assertThat(store.get("b/k#EXPIRATION_DAYS")).as("unreadable reads as absent").isEmpty();

        store.removeAt(due.get(0).key());
        assertThat(index.get("b/k#EXPIRATION_DAYS")).isNull();
        assertThat(store.pendingByKind()).containsExactlyEntriesOf(Map.of("EXPIRATION_DAYS", 1L));
    }
}
