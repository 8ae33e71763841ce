package io.tidemark.emulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.emulator.filer.FilerNode;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.seaweed.client.ClusterNode;
import io.tidemark.seaweed.client.GrpcChannels;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.HostPort;
import io.tidemark.seaweed.client.MasterClient;
import io.tidemark.seaweed.pb.FilerProto.CreateEntryRequest;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.PingRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The emulator as a cluster of filers sharing one store, seen through the filers' and the master's gRPC services. */
class FilerClusterTest {

    private static final String DIR = "/buckets";
    private static final String PREFIX = DIR + "/n-";

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
    private final Map<String, ManagedChannel> channels = new HashMap<>();
    private final List<Subscriber> subscribers = new ArrayList<>();
    private FilerEmulator emulator;

    private FilerEmulator start(int filers) {
        emulator = new FilerEmulator(EmulatorSettings.ephemeral().withFilers(filers), clock).start();
        return emulator;
    }

    @AfterEach
    void close() {
        subscribers.forEach(Subscriber::close);
        channels.values().forEach(ManagedChannel::shutdownNow);
        if (emulator != null) {
            emulator.close();
        }
    }

    private ManagedChannel channel(int filer) {
        return channels.computeIfAbsent(emulator.filerAddress(filer), a -> GrpcChannels.open(a, GrpcTls.PLAINTEXT));
    }

    /** Creates {@code /buckets/<name>} through filer {@code filer}'s gRPC service, a second after the last write. */
    private SubscribeMetadataResponse write(int filer, String name) {
        clock.advance(Duration.ofSeconds(1));
        // Waits for the channel to be ready: after a filer restart it reconnects with a backoff, as any client would.
        return SeaweedFilerGrpc.newBlockingStub(channel(filer)).withDeadlineAfter(5, TimeUnit.SECONDS).withWaitForReady()
                .createEntry(CreateEntryRequest.newBuilder().setDirectory(DIR)
                        .setEntry(Entry.newBuilder().setName(name)).build()).getMetadataEvent();
    }

    private Subscriber subscribe(int filer, boolean local, long sinceNs) {
        Subscriber subscriber = new Subscriber();
        subscribers.add(subscriber);
        SubscribeMetadataRequest request = SubscribeMetadataRequest.newBuilder().setClientName("test")
                .setPathPrefix(PREFIX).setSinceNs(sinceNs).build();
        SeaweedFilerGrpc.SeaweedFilerStub stub = SeaweedFilerGrpc.newStub(channel(filer)).withWaitForReady();
        if (local) {
            stub.subscribeLocalMetadata(request, subscriber);
        } else {
            stub.subscribeMetadata(request, subscriber);
        }
        return subscriber;
    }

    static String name(SubscribeMetadataResponse event) {
        return event.getEventNotification().getNewEntry().getName();
    }

    private long now() {
        return clock.instant().getEpochSecond() * 1_000_000_000L + clock.instant().getNano();
    }

    @Test
    void shouldStampEachFilersEventsStrictlyIncreasingEvenWhenItsClockStepsBack() {
        start(2);
        long before = write(1, "n-1").getTsNs();
        emulator.setFilerClockOffset(1, Duration.ofHours(-1));
        long afterStepBack = write(1, "n-2").getTsNs();
        long next = write(1, "n-3").getTsNs();
        emulator.setFilerClockOffset(1, Duration.ZERO);
        long caughtUp = write(1, "n-4").getTsNs();

        assertThat(afterStepBack).isEqualTo(before + 1);
        assertThat(next).isEqualTo(before + 2);
        assertThat(caughtUp).isEqualTo(now());
        FilerNode filer = emulator.filer(1);
        assertThat(filer.events()).extracting(SubscribeMetadataResponse::getTsNs).isSorted().doesNotHaveDuplicates();
        assertThat(filer.events()).allSatisfy(e -> assertThat(e.getEventNotification().getSignaturesList())
                .containsExactly(filer.signature()));
        assertThat(emulator.filer(0).events()).extracting(FilerClusterTest::name).doesNotContain("n-1", "n-2");
    }

    @Test
    void shouldStreamOnlyItsOwnEventsLiveOnALocalSubscription() throws InterruptedException {
        start(2);
        Subscriber local = subscribe(0, true, now());
        write(1, "n-peer");
        write(0, "n-own");
        write(1, "n-peer-2");
        write(0, "n-own-2");

        assertThat(local.namesUntil("n-own-2")).containsExactly("n-own", "n-own-2");
    }

    @Test
    void shouldReturnPeersEventsTooWhenALocalSubscriptionCatchesUpFromDisk() throws InterruptedException {
        start(2);
        long start = now();
        write(0, "n-a");
        write(1, "n-b");
        write(0, "n-c");
        write(1, "n-d");
        // The newest event alone is in memory: a subscription from the start reads the persisted logs, which on a
        // shared store are every filer's.
        emulator.store().setMetaLogMemoryWindow(1);

        Subscriber local = subscribe(0, true, start);

        assertThat(local.namesUntil("n-c")).containsExactly("n-a", "n-b", "n-c");
        assertThat(local.next()).extracting(FilerClusterTest::name).isEqualTo("n-d");
    }

    @Test
    void shouldDeliverADelayedFilersEventAfterLaterStampedOnesWithItsOriginalStamp() throws InterruptedException {
        start(2);
        Subscriber aggregated = subscribe(0, false, now());
        emulator.delayFiler(1, Duration.ofMillis(500));
        SubscribeMetadataResponse late = write(1, "n-late");
        SubscribeMetadataResponse later = write(0, "n-later");

        SubscribeMetadataResponse first = aggregated.next();
        SubscribeMetadataResponse second = aggregated.next();

        assertThat(name(first)).isEqualTo("n-later");
        assertThat(name(second)).isEqualTo("n-late");
        assertThat(second.getTsNs()).isEqualTo(late.getTsNs()).isLessThan(later.getTsNs());
        // The delayed filer's own local stream has it at once, in its place.
        assertThat(subscribe(1, true, late.getTsNs()).next().getTsNs()).isEqualTo(late.getTsNs());
    }

    /**
     * Issue 46 item 1, as upstream serves a local subscription on a shared store: the log files first, every filer's
     * flushed events merged by stamp, then this filer's memory from the last stamp the files gave. Filer 0 flushes at
     * 0 s, 10 s, ...; filer 1 at 5 s, 15 s, ...: at 6 s filer 1 has flushed its event at 2 s, filer 0 not its event at
     * 1 s, which its own stream then never sends.
     */
    @Test
    void shouldSkipItsOwnUnflushedEventsStampedBeforeAPeersFlushedOnesOnACatchUp() throws InterruptedException {
        start(2);
        emulator.store().setLogFlushInterval(Duration.ofSeconds(10));
        clock.set(Instant.parse("2026-03-01T12:00:00Z"));
        long start = now();
        write(0, "n-own");                   // at 1 s, through filer 0: not flushed before 10 s
        write(1, "n-peer");                  // at 2 s, through filer 1: flushed at 5 s
        clock.advance(Duration.ofSeconds(4)); // 6 s
        write(0, "n-own-later");             // at 7 s, through filer 0, in its memory

        Subscriber local = subscribe(0, true, start);

        assertThat(local.namesUntil("n-own-later")).as("filer 0's own event at 1 s is skipped")
                .containsExactly("n-peer", "n-own-later");
        // Once filer 0 has flushed it, a read of the files has it.
        clock.advance(Duration.ofSeconds(4)); // 11 s
        assertThat(subscribe(0, true, start).namesUntil("n-own-later")).containsExactly("n-own", "n-peer",
                "n-own-later");
    }

    /** Issue 46: a filer whose own stream lags, so that a tail of several filers hears its events late. */
    @Test
    void shouldHoldBackADelayedLocalStreamUntilItsEventsAreThatOldAndKeepTheirOrder() throws InterruptedException {
        start(2);
        emulator.delayLocalStream(1, Duration.ofSeconds(10));
        Subscriber own = subscribe(1, true, now());
        Subscriber peer = subscribe(0, true, now());
        SubscribeMetadataResponse first = write(1, "n-held");
        write(1, "n-held-2");
        write(0, "n-peer");

        assertThat(peer.next()).extracting(FilerClusterTest::name).isEqualTo("n-peer");
        assertThat(own.received(300)).as("held back while younger than the delay").isFalse();
        clock.advance(Duration.ofSeconds(10));
        assertThat(own.namesUntil("n-held-2")).containsExactly("n-held", "n-held-2");
        assertThat(own.taken().get(0).getTsNs()).isEqualTo(first.getTsNs());
    }

    @Test
    void shouldRefuseCallsWhileStoppedAndComeBackOnItsPortWithItsLogIntact() throws InterruptedException {
        start(2);
        long start = now();
        write(1, "n-before");
        String address = emulator.filerAddress(1);

        emulator.stopFiler(1);

        assertThatThrownBy(() -> SeaweedFilerGrpc.newBlockingStub(channel(1)).withDeadlineAfter(2, TimeUnit.SECONDS)
                .ping(PingRequest.getDefaultInstance()))
                .isInstanceOfSatisfying(StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
        try (MasterClient master = MasterClient.connect(emulator.masterAddress(), GrpcTls.PLAINTEXT,
                Duration.ofSeconds(5))) {
            assertThat(master.listFilers()).extracting(ClusterNode::grpcAddress)
                    .containsExactly(HostPort.parse(emulator.filerAddress(0)));
        }

        emulator.startFiler(1);

        assertThat(emulator.filerAddress(1)).isEqualTo(address);
        write(1, "n-after");
        assertThat(subscribe(1, true, start).namesUntil("n-after")).containsExactly("n-before", "n-after");
    }

    @Test
    void shouldListAJoiningFilerAtTheMasterAtTheAddressItServes() throws InterruptedException {
        start(2);
        int joined = emulator.addFiler();

        try (MasterClient master = MasterClient.connect(emulator.masterAddress(), GrpcTls.PLAINTEXT,
                Duration.ofSeconds(5))) {
            assertThat(master.listFilers()).extracting(ClusterNode::grpcAddress)
                    .containsExactlyElementsOf(emulator.filerAddresses().stream().map(HostPort::parse).toList());
        }
        assertThat(joined).isEqualTo(2);
        long since = now();
        write(2, "n-from-the-newcomer");
        assertThat(subscribe(0, false, since).next()).extracting(FilerClusterTest::name)
                .isEqualTo("n-from-the-newcomer");
    }

    /**
     * What the next step relies on. Filer 1's events reach filer 0's aggregated log late. A client of the aggregated
     * stream that resumes from the highest stamp it has seen (one global cursor) never gets the late event: it is
     * older than the cursor. A client with a local subscription per filer, each resumed from that filer's own cursor,
     * gets every event, because each filer's own stamps only go up.
     */
    @Test
    void shouldLoseADelayedFilersEventToAGlobalCursorButNotToPerFilerCursors() throws InterruptedException {
        start(2);
        emulator.delayFiler(1, Duration.ofMillis(700));
        long start = now();
        Subscriber aggregated = subscribe(0, false, start);
        Subscriber local0 = subscribe(0, true, start);
        Subscriber local1 = subscribe(1, true, start);

        SubscribeMetadataResponse late = write(1, "n-late");
        write(0, "n-on-time");
        // Both clients go away, each having what its streams had delivered by then.
        long globalCursor = aggregated.next().getTsNs();
        assertThat(aggregated.taken()).extracting(FilerClusterTest::name).containsExactly("n-on-time");
        long cursor0 = local0.next().getTsNs();
        long cursor1 = local1.next().getTsNs();
        aggregated.close();
        local0.close();
        local1.close();
        assertThat(cursor1).isEqualTo(late.getTsNs());
        // The late event reaches filer 0's aggregated log while nobody is subscribed.
        Thread.sleep(1_000);
        write(1, "n-after-1");
        write(0, "n-after-0");

        List<String> global = subscribe(0, false, globalCursor).namesUntil("n-after-0");
        List<String> perFiler = new ArrayList<>(subscribe(0, true, cursor0).namesUntil("n-after-0"));
        perFiler.addAll(subscribe(1, true, cursor1).namesUntil("n-after-1"));

        assertThat(global).doesNotContain("n-late");
        // Not because the event is missing: the aggregated stream read from the start has it, late, where it arrived.
        assertThat(subscribe(0, false, start).namesUntil("n-late")).containsExactly("n-on-time", "n-late");
        assertThat(perFiler).contains("n-late", "n-on-time", "n-after-0", "n-after-1");
    }
}
