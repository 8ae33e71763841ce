package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FilerMergeTest {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final FilerMerge merge = new FilerMerge(Duration.ofSeconds(2), Duration.ZERO, 100, 0, nanos::get);

    private static FilerEvent event(long tsNs, String name) {
        EventNotification n = EventNotification.newBuilder().setNewEntry(Entry.newBuilder().setName(name)).build();
        return new FilerEvent(SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b").setTsNs(tsNs)
                .setEventNotification(n).build(), n.toByteString());
    }

    private static List<String> names(List<FilerMerge.Taken> taken) {
        return taken.stream().map(t -> {
            EventNotification n = t.event().response().getEventNotification();
            return n.hasNewEntry() ? n.getNewEntry().getName() : n.getOldEntry().getName();
        }).toList();
    }

    @Test
    void shouldReleaseEventsInStampOrderOnceEveryFilerHasPassedThem() {
        merge.addFiler("a");
        merge.addFiler("b");
        merge.offer("a", event(100, "a100"));
        merge.offer("a", event(300, "a300"));
        assertThat(merge.release(10)).as("b has sent nothing yet: it may still send something older").isEmpty();

        merge.offer("b", event(200, "b200"));
        assertThat(names(merge.release(10))).containsExactly("a100", "b200");
        merge.offer("b", event(400, "b400"));
        assertThat(names(merge.release(10))).containsExactly("a300");
        assertThat(merge.releasedTsNs()).isEqualTo(300);
    }

    @Test
    void shouldWaitForAQuietFilerOnlyUntilThePresentIsHoldMaxPastAndReleaseWhatItSendsLaterAsLate() {
        merge.addFiler("a");
        merge.addFiler("b");
        long s = 1_000_000_000L;
        merge.offer("a", event(100 * s, "a100"));
        nanos.addAndGet(s);
        merge.offer("a", event(101 * s, "a101"));
        nanos.addAndGet(1_500_000_000L);
        assertThat(merge.quiet()).containsExactly("b");
        assertThat(names(merge.release(10))).as("b may still send what it stamped up to the present less 2 s")
                .containsExactly("a100");
        nanos.addAndGet(s);
        assertThat(names(merge.release(10))).containsExactly("a101");

        merge.offer("b", event(100 * s + 500, "b-lagging"));
        List<FilerMerge.Taken> late = merge.release(10);
        assertThat(names(late)).containsExactly("b-lagging");
        assertThat(late.get(0).late()).isTrue();
        assertThat(late.get(0).duplicate()).isFalse();
        assertThat(late.get(0).unverified()).isFalse();
    }

    @Test
    void shouldTakeAPeersEventReturnedByACatchUpAsADuplicate() {
        merge.addFiler("a");
        merge.addFiler("b");
        merge.offer("a", event(100, "a100"));
        merge.offer("b", event(100, "a100"));
        merge.offer("b", event(150, "b150"));
        merge.offer("a", event(200, "a200"));
        List<FilerMerge.Taken> taken = merge.release(10);
        assertThat(names(taken)).containsExactly("a100", "a100", "b150");
        assertThat(taken.stream().filter(FilerMerge.Taken::duplicate).map(FilerMerge.Taken::filer))
                .as("the first copy to leave is published, the later one left out").containsExactly("b");

        // Long after: b's catch-up from its log files brings a's released event again.
        merge.offer("b", event(200, "a200"));
        merge.offer("b", event(210, "b210"));
        merge.offer("a", event(220, "a220"));
        taken = merge.release(10);
        assertThat(names(taken)).containsExactly("a200", "a200", "b210");
        assertThat(taken.stream().filter(FilerMerge.Taken::duplicate)).hasSize(1);
    }

    /**
     * Issue 46 item 2: Go writes a map in random order, so the copy of an event a filer serves from memory and the one
     * its peer reads back from the log files often differ byte for byte; they are still one event.
     */
    @Test
    void shouldTakeACopyWhoseExtendedAttributesComeInAnotherOrderAsADuplicate() throws Exception {
        Entry.Builder entry = Entry.newBuilder().setName("k").setAttributes(
                io.tidemark.seaweed.pb.FilerProto.FuseAttributes.newBuilder().setMtime(7).setFileSize(5));
        com.google.protobuf.ByteString one = EventNotification.newBuilder().setNewEntry(entry.clone()
                .putExtended("X-Amz-Tagging-a", com.google.protobuf.ByteString.copyFromUtf8("1"))
                .putExtended("X-Amz-Tagging-b", com.google.protobuf.ByteString.copyFromUtf8("2"))).build().toByteString();
        com.google.protobuf.ByteString other = EventNotification.newBuilder().setNewEntry(entry.clone()
                .putExtended("X-Amz-Tagging-b", com.google.protobuf.ByteString.copyFromUtf8("2"))
                .putExtended("X-Amz-Tagging-a", com.google.protobuf.ByteString.copyFromUtf8("1"))).build().toByteString();
        assertThat(one).as("the two copies as encoded").isNotEqualTo(other);
        merge.addFiler("a");
        merge.addFiler("b");

        merge.offer("a", encoded(100, one));
        merge.offer("b", encoded(100, other));
        merge.offer("a", event(200, "a200"));
        merge.offer("b", event(200, "b200"));
        List<FilerMerge.Taken> taken = merge.release(10);

        assertThat(names(taken)).startsWith("k", "k");
        assertThat(taken.get(0).duplicate()).isFalse();
        assertThat(taken.get(1).duplicate()).as("the second copy").isTrue();
    }

    /**
     * In a catch-up of three filers from a shared store two of every three events are copies. Counting them against
     * the batch left each transaction a third full and made the tail loop ask again and again for what was left.
     */
    @Test
    void shouldCountOnlyWhatIsPublishedAgainstTheMostAReleaseTakes() {
        merge.addFiler("a");
        merge.addFiler("b");
        merge.addFiler("c");
        for (String filer : List.of("a", "b", "c")) {
            for (long ts = 100; ts <= 500; ts += 100) {
                merge.offer(filer, event(ts, "k" + ts));
            }
        }

        List<FilerMerge.Taken> taken = merge.release(2);

        assertThat(taken.stream().filter(t -> !t.duplicate()).map(t -> names(List.of(t)).get(0)))
                .containsExactly("k100", "k200");
        assertThat(taken).as("with the copies of the first that came before the second").hasSize(4);
    }

    private static FilerEvent encoded(long tsNs, com.google.protobuf.ByteString notification) throws Exception {
        return new FilerEvent(SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b").setTsNs(tsNs)
                .setEventNotification(EventNotification.parseFrom(notification)).build(), notification);
    }

    @Test
    void shouldFlagALateEventOlderThanItsMemoryAsUnverified() {
        FilerMerge resumed = new FilerMerge(Duration.ofSeconds(2), Duration.ZERO, 100, 1_000, nanos::get);
        resumed.addFiler("a");
        resumed.offer("a", event(900, "a900"));
        List<FilerMerge.Taken> taken = resumed.release(10);
        assertThat(taken).hasSize(1);
        assertThat(taken.get(0).late()).isTrue();
        assertThat(taken.get(0).unverified()).as("released before the restart, or not: nothing here can tell").isTrue();
    }

    private static FilerEvent put(long tsNs, String name, long mtime) {
        EventNotification n = EventNotification.newBuilder().setNewEntry(entry(name, mtime)).build();
        return new FilerEvent(SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b").setTsNs(tsNs)
                .setEventNotification(n).build(), n.toByteString());
    }

    private static FilerEvent delete(long tsNs, String name, long mtime) {
        EventNotification n = EventNotification.newBuilder().setOldEntry(entry(name, mtime)).build();
        return new FilerEvent(SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b").setTsNs(tsNs)
                .setEventNotification(n).build(), n.toByteString());
    }

    private static Entry entry(String name, long mtime) {
        return Entry.newBuilder().setName(name).setAttributes(
                io.tidemark.seaweed.pb.FilerProto.FuseAttributes.newBuilder().setMtime(mtime).setFileSize(5)).build();
    }

    @Test
    void shouldPublishADeleteThroughABehindClockAfterThePutItUndoesThroughAnother() {
        FilerMerge skewed = new FilerMerge(Duration.ofSeconds(2), Duration.ofMillis(500), 100, 0, nanos::get);
        skewed.addFiler("ahead");
        skewed.addFiler("behind");
        long ms = 1_000_000L;
        // Real order: x written through "ahead" (its clock 300 ms fast), deleted through "behind" 100 ms later.
        skewed.offer("ahead", put(1_300 * ms, "x", 1));
        skewed.offer("behind", event(1_000 * ms, "y"));
        skewed.offer("behind", delete(1_100 * ms, "x", 1));
        skewed.offer("ahead", put(1_350 * ms, "z", 2));
        assertThat(skewed.release(10)).as("nobody is 500 ms past either yet").isEmpty();

        skewed.offer("ahead", put(2_000 * ms, "later-a", 3));
        skewed.offer("behind", event(2_000 * ms, "later-b"));
        List<FilerMerge.Taken> taken = skewed.release(10);
        assertThat(names(taken).subList(0, 2)).containsExactly("y", "x");
        assertThat(taken.get(1).event().response().getEventNotification().hasNewEntry()).as("the PUT first").isTrue();
        assertThat(taken.get(2).event().response().getEventNotification().hasOldEntry()).as("then its DELETE").isTrue();
        assertThat(taken).hasSize(4);
    }

    @Test
    void shouldPublishACreationThroughABehindClockAfterTheDeleteThatFreedItsPathThroughAnother() {
        FilerMerge skewed = new FilerMerge(Duration.ofSeconds(2), Duration.ofMillis(500), 100, 0, nanos::get);
        skewed.addFiler("ahead");
        skewed.addFiler("behind");
        long ms = 1_000_000L;
        // Real order: x deleted through "ahead" (300 ms fast), then written anew through "behind" 100 ms later.
        skewed.offer("ahead", delete(1_300 * ms, "x", 1));
        skewed.offer("behind", put(1_100 * ms, "x", 2));
        skewed.offer("ahead", event(2_000 * ms, "later-a"));
        skewed.offer("behind", event(2_000 * ms, "later-b"));
        List<FilerMerge.Taken> taken = skewed.release(10);
        assertThat(taken).hasSize(2);
        assertThat(taken.get(0).event().response().getEventNotification().hasOldEntry()).as("the DELETE first").isTrue();
        assertThat(taken.get(1).event().response().getEventNotification().hasNewEntry()).as("then the new x").isTrue();
    }
}
