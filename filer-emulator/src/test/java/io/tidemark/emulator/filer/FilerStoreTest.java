package io.tidemark.emulator.filer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.emulator.MutableClock;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.FilerError;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class FilerStoreTest {

    private final MutableClock clock = new MutableClock(Instant.parse("2026-01-01T00:00:00Z"));
    private final FilerStore store = FilerStore.inMemory(clock, 42);

    static Entry file(String name, long mtime) {
        return Entry.newBuilder().setName(name)
                .setAttributes(FuseAttributes.newBuilder().setMtime(mtime).setFileSize(1)).build();
    }

    private List<SubscribeMetadataResponse> events() {
        List<SubscribeMetadataResponse> all = new ArrayList<>();
        for (int i = 0; i < store.metaLog().size(); i++) {
            all.add(store.metaLog().get(i));
        }
        return all;
    }

    private static List<String> names(List<Entry> entries) {
        return entries.stream().map(Entry::getName).toList();
    }

    @Test
    void shouldCreateMissingParentDirectoriesEachWithItsOwnEvent() throws Exception {
        store.create("/buckets/b/a", file("x.txt", 1), false);
        assertThat(events()).extracting(e -> e.getDirectory() + " + " + e.getEventNotification().getNewEntry().getName())
                .containsExactly("/ + buckets", "/buckets + b", "/buckets/b + a", "/buckets/b/a + x.txt");
        assertThat(store.lookup("/buckets/b", "a").orElseThrow().getIsDirectory()).isTrue();
        SubscribeMetadataResponse created = events().get(3);
        assertThat(created.getEventNotification().getNewParentPath()).isEqualTo("/buckets/b/a");
        assertThat(created.getEventNotification().hasOldEntry()).isFalse();
        assertThat(created.getEventNotification().getSignaturesList()).containsExactly(42);
    }

    @Test
    void shouldStampStrictlyIncreasingTimestampsEvenWhenTheClockStandsStill() throws Exception {
        for (int i = 0; i < 50; i++) {
            store.create("/d", file("f" + i, 1), false);
        }
        long previous = 0;
        for (SubscribeMetadataResponse e : events()) {
            assertThat(e.getTsNs()).isGreaterThan(previous);
            previous = e.getTsNs();
        }
    }

    @Test
    void shouldRecordTheOldAndNewEntryOfAnOverwrite() throws Exception {
        store.create("/d", file("f", 1), false);
        SubscribeMetadataResponse overwrite = store.create("/d", file("f", 2), false);
        assertThat(overwrite.getEventNotification().getOldEntry().getAttributes().getMtime()).isEqualTo(1);
        assertThat(overwrite.getEventNotification().getNewEntry().getAttributes().getMtime()).isEqualTo(2);
    }

    @Test
    void shouldRefuseExclusiveCreationAndTypeChanges() throws Exception {
        store.create("/d", file("f", 1), false);
        assertThatThrownBy(() -> store.create("/d", file("f", 1), true))
                .isInstanceOf(FilerException.class)
                .extracting(e -> ((FilerException) e).code()).isEqualTo(FilerError.ENTRY_ALREADY_EXISTS);
        assertThatThrownBy(() -> store.create("/", FilerStore.newDirectory("d", clock.instant()).toBuilder()
                .setIsDirectory(false).build(), false))
                .extracting(e -> ((FilerException) e).code()).isEqualTo(FilerError.EXISTING_IS_DIRECTORY);
        assertThatThrownBy(() -> store.create("/d/f", file("g", 1), false))
                .extracting(e -> ((FilerException) e).code()).isEqualTo(FilerError.PARENT_IS_FILE);
    }

    @Test
    void shouldListInNameOrderFromAnExclusiveOrInclusiveStart() throws Exception {
        for (String name : new String[] {"c", "a", "e", "b", "d"}) {
            store.create("/d", file(name, 1), false);
        }
        assertThat(names(store.list("/d", "", "", false, 0))).containsExactly("a", "b", "c", "d", "e");
        assertThat(names(store.list("/d", "", "b", false, 2))).containsExactly("c", "d");
        assertThat(names(store.list("/d", "", "b", true, 2))).containsExactly("b", "c");
        assertThat(names(store.list("/d", "", "bb", true, 0))).containsExactly("c", "d", "e");
        assertThat(names(store.list("/d", "", "e", false, 10))).isEmpty();
        assertThat(names(store.list("/missing", "", "", false, 10))).isEmpty();
    }

    @Test
    void shouldPageThroughEveryEntryOnceWhateverThePageSize() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 37; i++) {
            String name = String.format("k%03d", i);
            expected.add(name);
            store.create("/d", file(name, 1), false);
        }
        for (int pageSize : new int[] {1, 5, 36, 37, 38, 100}) {
            List<String> seen = new ArrayList<>();
            String start = "";
            while (true) {
                List<Entry> page = store.list("/d", "", start, false, pageSize);
                seen.addAll(names(page));
                if (page.size() < pageSize) {
                    break;
                }
                start = page.get(page.size() - 1).getName();
            }
            assertThat(seen).as("page size %d", pageSize).isEqualTo(expected);
        }
    }

    @Test
    void shouldFilterListingsByNamePrefix() throws Exception {
        for (String name : new String[] {"log-1", "log-2", "logs", "data", "lo"}) {
            store.create("/d", file(name, 1), false);
        }
        assertThat(names(store.list("/d", "log", "", false, 0))).containsExactly("log-1", "log-2", "logs");
        assertThat(names(store.list("/d", "log", "log-1", false, 1))).containsExactly("log-2");
        assertThat(names(store.list("/d", "zz", "", false, 0))).isEmpty();
    }

    @Test
    void shouldDeleteDirectoriesRecursivelyChildrenFirst() throws Exception {
        store.create("/d/sub", file("a", 1), false);
        store.create("/d", file("b", 1), false);
        int before = store.metaLog().size();
        assertThatThrownBy(() -> store.delete("/", "d", false, true, 0)).hasMessageContaining("non-empty");
        store.delete("/", "d", true, true, 0);
        List<SubscribeMetadataResponse> deletes = events().subList(before, store.metaLog().size());
        assertThat(deletes).extracting(e -> e.getDirectory() + " - " + e.getEventNotification().getOldEntry().getName())
                .containsExactly("/d - b", "/d/sub - a", "/d - sub", "/ - d");
        assertThat(deletes).allMatch(e -> !e.getEventNotification().hasNewEntry());
        assertThat(store.lookup("/d/sub", "a")).isEmpty();
    }

    @Test
    void shouldTreatDeletingAMissingEntryAsSuccessWithoutAnEvent() throws Exception {
        int before = store.metaLog().size();
        assertThat(store.delete("/nowhere", "x", false, false, 0)).isEmpty();
        assertThat(store.metaLog().size()).isEqualTo(before);
    }

    @Test
    void shouldSkipADeleteSilentlyWhenTheEntryChangedAfterTheGivenTime() throws Exception {
        store.create("/d", file("f", 2000), false);
        assertThat(store.delete("/d", "f", false, false, 1999)).isEmpty();
        assertThat(store.lookup("/d", "f")).isPresent();
        assertThat(store.delete("/d", "f", false, false, 2000)).isPresent();
    }

    @Test
    void shouldFindTheFirstEventAtOrAfterATimestamp() throws Exception {
        store.create("/d", file("a", 1), false);
        long ts = store.create("/d", file("b", 1), false).getTsNs();
        store.create("/d", file("c", 1), false);
        MetaLog log = store.metaLog();
        assertThat(log.get(log.firstAtOrAfter(ts)).getTsNs()).isEqualTo(ts);
        assertThat(log.get(log.firstAtOrAfter(ts + 1)).getEventNotification().getNewEntry().getName()).isEqualTo("c");
        assertThat(log.firstAtOrAfter(Long.MAX_VALUE)).isEqualTo(log.size());
    }
}
