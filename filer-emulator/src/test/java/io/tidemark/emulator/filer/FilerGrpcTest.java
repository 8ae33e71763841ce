package io.tidemark.emulator.filer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FilerGrpcTest {

    private FilerEmulator emulator;
    private FilerClient client;

    @BeforeEach
    void start() {
        emulator = new FilerEmulator(EmulatorSettings.ephemeral().withHeartbeatInterval(Duration.ofMillis(200)),
                Clock.systemUTC()).start();
        client = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        client.close();
        emulator.close();
    }

    private void write(String dir, String name) throws FilerException {
        emulator.store().create(dir, FilerStoreTest.file(name, 1), false);
    }

    private static List<SubscribeMetadataResponse> take(MetadataSubscription s, int count) throws InterruptedException {
        List<SubscribeMetadataResponse> got = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (got.size() < count && System.nanoTime() < deadline) {
            SubscribeMetadataResponse e = s.poll(Duration.ofMillis(100));
            if (e != null) {
                got.add(e);
            }
        }
        return got;
    }

    private static String name(SubscribeMetadataResponse e) {
        var n = e.getEventNotification();
        return n.hasNewEntry() ? n.getNewEntry().getName() : n.getOldEntry().getName();
    }

    @Test
    void shouldLookUpEntriesAndRecogniseTheFilersNotFoundAnswer() throws Exception {
        write("/buckets/b", "k");
        assertThat(client.lookup("/buckets/b", "k")).map(Entry::getName).contains("k");
        assertThat(client.lookup("/buckets/b", "missing")).isEmpty();
        assertThat(client.lookup("/no/such/dir", "x")).isEmpty();
    }

    @Test
    void shouldReportTheBucketsDirectory() {
        assertThat(client.bucketsDirectory()).isEqualTo("/buckets");
        assertThat(client.configuration().getSignature()).isEqualTo(emulator.store().signature());
    }

    @Test
    void shouldListEveryEntryAcrossPages() throws Exception {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            expected.add(String.format("o%02d", i));
            write("/buckets/b", expected.get(i));
        }
        List<String> seen = new ArrayList<>();
        client.listAll("/buckets/b", "", 4).forEach(e -> seen.add(e.getName()));
        assertThat(seen).isEqualTo(expected);
        assertThat(client.listPage("/buckets/b", "o1", "o12", true, 3)).extracting(Entry::getName)
                .containsExactly("o12", "o13", "o14");
    }

    @Test
    void shouldStreamHistoryThenLiveEventsFilteredByPathPrefix() throws Exception {
        write("/buckets/a", "old");
        write("/other", "skip");
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("test", "/buckets/", 0))) {
            List<SubscribeMetadataResponse> history = take(s, 2);
            assertThat(history).extracting(FilerGrpcTest::name).containsExactly("a", "old");
            write("/buckets/a", "new");
            write("/other", "skip-too");
            assertThat(take(s, 1)).extracting(FilerGrpcTest::name).containsExactly("new");
            assertThat(s.poll(Duration.ofMillis(300))).isNull();
        }
    }

    @Test
    void shouldDeliverEachEventWithTheFilersOwnEncodingOfItsNotification() throws Exception {
        write("/buckets/a", "x");
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("test", "/buckets/", 0))) {
            for (SubscribeMetadataResponse sent : emulator.store().events(0).stream()
                    .filter(e -> e.getDirectory().startsWith("/buckets")).toList()) {
                FilerEvent got = s.pollEvent(Duration.ofSeconds(10));
                assertThat(got.response()).isEqualTo(sent.toBuilder().clearFlushedTsNs().build());
                assertThat(got.encodedNotification()).isEqualTo(sent.getEventNotification().toByteString());
            }
        }
    }

    @Test
    void shouldTreatSinceAsInclusiveAndSkipWhatTheCallerAlreadyHas() throws Exception {
        write("/buckets/a", "1");
        long second = emulator.store().create("/buckets/a", FilerStoreTest.file("2", 1), false).getTsNs();
        write("/buckets/a", "3");
        try (MetadataSubscription inclusive = client.subscribe(SubscriptionOptions.from("t1", "/buckets/", second))) {
            assertThat(take(inclusive, 2)).extracting(FilerGrpcTest::name).containsExactly("2", "3");
        }
        try (MetadataSubscription resumed = client.subscribe(SubscriptionOptions.from("t2", "/buckets/", 0)
                .resumingAfter(second, 1))) {
            assertThat(take(resumed, 1)).extracting(FilerGrpcTest::name).containsExactly("3");
            assertThat(resumed.poll(Duration.ofMillis(300))).isNull();
        }
    }

    /** The names a raw subscription (no client-side resume logic) receives, until {@code until}. */
    private List<String> rawStream(long sinceNs, long untilNs) {
        var channel = Grpc.newChannelBuilder(emulator.filerAddress(), InsecureChannelCredentials.create()).build();
        try {
            var responses = SeaweedFilerGrpc.newBlockingStub(channel).subscribeMetadata(SubscribeMetadataRequest
                    .newBuilder().setClientName("raw").setPathPrefix("/buckets/").setSinceNs(sinceNs).setUntilNs(untilNs)
                    .build());
            List<String> names = new ArrayList<>();
            responses.forEachRemaining(r -> names.add(name(r)));
            return names;
        } finally {
            channel.shutdownNow();
        }
    }

    /**
     * Issue 35 item 3, as upstream reads its meta-log: since_ns is inclusive within the filer's memory, exclusive in
     * its log files on disk; a stream that starts on disk goes on from memory at the last timestamp it sent,
     * inclusively, so the events there come again.
     */
    @Test
    void shouldReadSinceExclusivelyFromDiskInclusivelyFromMemoryAndRepeatTheBoundary() throws Exception {
        List<Long> ts = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            ts.add(emulator.store().create("/buckets", FilerStoreTest.file("e" + i, 1), false).getTsNs());
        }
        emulator.store().setMetaLogMemoryWindow(3);
        assertThat(rawStream(ts.get(4), ts.get(5))).as("in memory: inclusive").containsExactly("e5", "e6");
        assertThat(rawStream(ts.get(1), ts.get(5))).as("on disk: exclusive, then memory from the last sent, inclusive")
                .containsExactly("e3", "e4", "e5", "e6", "e6");
    }

    /**
     * Issue 34: the filer's persisted meta-log, a file per minute under {@code /topics/.system/log/<day>/}, named as
     * upstream names it; a purge removes whole minutes, and a subscription from before them starts at what is left.
     */
    @Test
    void shouldListItsMetaLogFilesByMinuteAndServeOnlyWhatAPurgeLeft() throws Exception {
        io.tidemark.emulator.MutableClock clock = new io.tidemark.emulator.MutableClock(
                java.time.Instant.parse("2026-03-01T23:58:10Z"));
        try (FilerEmulator purged = new FilerEmulator(EmulatorSettings.ephemeral(), clock).start();
             FilerClient filer = FilerClient.connect(purged.filerAddress(), GrpcTls.PLAINTEXT, Duration.ofSeconds(5))) {
            purged.store().create("/buckets", FilerStoreTest.file("a", 1), false);
            clock.advance(Duration.ofMinutes(2));
            purged.store().create("/buckets", FilerStoreTest.file("b", 1), false);
            clock.advance(Duration.ofMinutes(1));
            long last = purged.store().create("/buckets", FilerStoreTest.file("c", 1), false).getTsNs();
            clock.advance(Duration.ofSeconds(1));   // past until_ns, so the stream below ends

            String dir = io.tidemark.seaweed.FilerLogFiles.DIRECTORY;
            assertThat(filer.listAll(dir, "", 100)).extracting(Entry::getName)
                    .containsExactly("2026-03-01", "2026-03-02");
            String id = String.format("%08x", purged.store().signature());
            assertThat(filer.listAll(dir + "/2026-03-02", "", 100)).extracting(Entry::getName)
                    .containsExactly("00-00." + id, "00-01." + id);
            assertThat(io.tidemark.seaweed.FilerLogFiles.oldest(filer))
                    .contains(java.time.Instant.parse("2026-03-01T23:58:00Z"));

            assertThat(purged.store().purgeMetaLogBefore(java.time.Instant.parse("2026-03-02T00:00:30Z"))).isPositive();
            assertThat(filer.listAll(dir, "", 100)).extracting(Entry::getName).containsExactly("2026-03-02");
            assertThat(io.tidemark.seaweed.FilerLogFiles.oldest(filer))
                    .contains(java.time.Instant.parse("2026-03-02T00:00:00Z"));
            var channel = Grpc.newChannelBuilder(purged.filerAddress(), InsecureChannelCredentials.create()).build();
            try {
                var responses = SeaweedFilerGrpc.newBlockingStub(channel).subscribeMetadata(SubscribeMetadataRequest
                        .newBuilder().setClientName("after-purge").setPathPrefix("/buckets/").setSinceNs(1)
                        .setUntilNs(last).build());
                List<String> names = new ArrayList<>();
                responses.forEachRemaining(r -> names.add(name(r)));
                assertThat(names).containsExactly("b", "c");
            } finally {
                channel.shutdownNow();
            }
        }
    }

    /**
     * A disk pass that a slow reader holds up while the memory window moves past where it will end (as upstream's
     * ResumeFromDiskError): reading goes on from disk, not from the memory window's start, so nothing is skipped.
     */
    @Test
    void shouldGoOnFromDiskWhenTheMemoryWindowMovedPastTheDiskPass() throws Exception {
        emulator.store().setMetaLogMemoryWindow(3);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            write("/buckets", "d" + i);
            expected.add("d" + i);
        }
        // A tiny HTTP/2 window: the filer's stream waits for this reader a few hundred events into its disk pass.
        var channel = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forTarget(emulator.filerAddress())
                .usePlaintext().flowControlWindow(1_024).build();
        try {
            var responses = SeaweedFilerGrpc.newBlockingStub(channel).withDeadlineAfter(30, TimeUnit.SECONDS)
                    .subscribeMetadata(SubscribeMetadataRequest.newBuilder().setClientName("slow")
                            .setPathPrefix("/buckets/").setSinceNs(1).build());
            List<String> names = new ArrayList<>();
            names.add(name(responses.next()));
            long lastTs = 0;
            for (int i = 0; i < 1_000; i++) {
                lastTs = emulator.store().create("/buckets", FilerStoreTest.file("m" + i, 1), false).getTsNs();
                expected.add("m" + i);
            }
            for (long ts = 0; ts != lastTs; ) {
                SubscribeMetadataResponse r = responses.next();
                names.add(name(r));
                ts = r.getTsNs();
            }
            assertThat(names.stream().distinct().toList()).containsExactlyElementsOf(expected);
            assertThat(names.size() - expected.size()).as("at most the boundary's one repeat").isBetween(0, 1);
        } finally {
            channel.shutdownNow();
        }
    }

    /**
     * Issue 35 item 3: the subscription resumes right from disk and from memory alike, where events share a
     * timestamp (several filers' logs merged), and drops the boundary's repeats.
     */
    @Test
    void shouldResumeWithoutLossOrRepeatFromDiskOrMemoryWhereEventsShareATimestamp() throws Exception {
        write("/buckets", "warm-up");
        emulator.store().stampEventsInRunsOf(3);
        List<Long> ts = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            ts.add(emulator.store().create("/buckets", FilerStoreTest.file("e" + i, 1), false).getTsNs());
        }
        assertThat(ts.get(3)).isEqualTo(ts.get(5)).isLessThan(ts.get(6));
        List<String> all = java.util.stream.IntStream.range(0, 12).mapToObj(i -> "e" + i).toList();
        for (int window : new int[] {3, 1_000}) {
            emulator.store().setMetaLogMemoryWindow(window);
            for (int seen = 1; seen <= 3; seen++) {
                // Already has the first `seen` events of the run e3, e4, e5: gets the rest of it and what follows.
                try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                        .resumingAfter(ts.get(3), seen).withBackoff(Duration.ofMillis(20), Duration.ofMillis(200)))) {
                    List<String> expected = all.subList(3 + seen, 12);
                    List<String> got = new ArrayList<>();
                    take(s, expected.size()).forEach(e -> got.add(name(e)));
                    emulator.dropSubscriptions();   // resumes inside the last run, which it has whole
                    assertThat(s.poll(Duration.ofMillis(500))).as("nothing again after a reconnect").isNull();
                    assertThat(got).as("memory window " + window + ", " + seen + " seen").containsExactlyElementsOf(expected);
                }
            }
        }
    }

    @Test
    void shouldBatchWaitingEventsOnlyForClientsThatSupportIt() throws Exception {
        for (int i = 0; i < 600; i++) {
            write("/buckets/b", "o" + i);
        }
        long until = emulator.store().create("/buckets/b", FilerStoreTest.file("last", 1), false).getTsNs();
        var channel = Grpc.newChannelBuilder(emulator.filerAddress(),
                InsecureChannelCredentials.create()).build();
        try {
            var stub = SeaweedFilerGrpc.newBlockingStub(channel);
            for (boolean batching : new boolean[] {false, true}) {
                var responses = stub.subscribeMetadata(SubscribeMetadataRequest.newBuilder().setClientName("raw").setPathPrefix("/buckets/").setUntilNs(until)
                        .setClientSupportsBatching(batching).build());
                int messages = 0;
                int events = 0;
                int largest = 0;
                while (responses.hasNext()) {
                    SubscribeMetadataResponse r = responses.next();
                    messages++;
                    events += 1 + r.getEventsCount();
                    largest = Math.max(largest, 1 + r.getEventsCount());
                }
                assertThat(events).isEqualTo(602);
                if (batching) {
                    assertThat(messages).isLessThan(events);
                    assertThat(largest).isLessThanOrEqualTo(FilerService.MAX_BATCH);
                } else {
                    assertThat(messages).isEqualTo(events);
                }
            }
        } finally {
            channel.shutdownNow();
        }
    }

    @Test
    void shouldEndTheStreamAfterUntil() throws Exception {
        write("/buckets/a", "1");
        long until = emulator.store().create("/buckets/a", FilerStoreTest.file("2", 1), false).getTsNs();
        write("/buckets/a", "3");
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0).until(until))) {
            assertThat(take(s, 3)).extracting(FilerGrpcTest::name).containsExactly("a", "1", "2");
            await().atMost(Duration.ofSeconds(10)).until(s::finished);
            assertThat(s.state()).isEqualTo(MetadataSubscription.State.COMPLETED);
        }
    }

    @Test
    void shouldBoundItsBufferByEventsWhenTheFilerBatchesThem() throws Exception {
        int written = 3_000;
        for (int i = 0; i < written; i++) {
            write("/buckets/b", "o" + i);
        }
        int bufferSize = 16;
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                .withBufferSize(bufferSize))) {
            // Nobody polls: the history arrives in batches of up to 256 events until the buffer is full.
            await().atMost(Duration.ofSeconds(10)).until(() -> s.bufferedEvents() >= bufferSize);
            Thread.sleep(500);
            assertThat(s.bufferedEvents()).isLessThanOrEqualTo(bufferSize + MetadataSubscription.MAX_EVENTS_PER_MESSAGE);
            List<SubscribeMetadataResponse> got = take(s, written + 1);
            assertThat(got).hasSize(written + 1);
            List<String> expected = java.util.stream.IntStream.range(0, written).mapToObj(i -> "o" + i).toList();
            assertThat(got.stream().map(FilerGrpcTest::name).skip(1).toList()).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldResumeWithoutLossOrRepeatWhenTheFilerDropsTheStream() throws Exception {
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                .withBackoff(Duration.ofMillis(20), Duration.ofMillis(200)))) {
            List<String> got = new ArrayList<>();
            write("/buckets/b", "first");
            take(s, 2).forEach(e -> got.add(name(e)));
            for (int round = 0; round < 5; round++) {
                int reconnects = s.reconnects();
                long lastTs = 0;
                for (int i = 0; i < 10; i++) {
                    lastTs = emulator.store().create("/buckets/b", FilerStoreTest.file(round + "-" + i, 1), false)
                            .getTsNs();
                }
                long written = lastTs;
                // Drop only a stream that is live, not one between reconnects.
                await().atMost(Duration.ofSeconds(10)).until(() -> s.lastDeliveredTsNs() >= written);
                emulator.dropSubscriptions();
                await().atMost(Duration.ofSeconds(10)).until(() -> s.reconnects() > reconnects);
            }
            take(s, 50).forEach(e -> got.add(name(e)));
            assertThat(got).hasSize(52).doesNotHaveDuplicates().startsWith("b", "first");
            assertThat(s.poll(Duration.ofMillis(300))).isNull();
            assertThat(s.reconnects()).isGreaterThanOrEqualTo(5);
        }
    }

    @Test
    void shouldKeepDeliveringInOrderThroughInjectedUnavailableFaults() throws Exception {
        for (int i = 0; i < 100; i++) {
            write("/buckets/b", String.format("%03d", i));
        }
        emulator.faults().setUnavailableProbability(0.5);
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                .withBackoff(Duration.ofMillis(10), Duration.ofMillis(50)))) {
            List<SubscribeMetadataResponse> got = take(s, 101);
            assertThat(got).hasSize(101);
            for (int i = 1; i < got.size(); i++) {
                assertThat(got.get(i).getTsNs()).isGreaterThan(got.get(i - 1).getTsNs());
            }
        } finally {
            emulator.faults().setUnavailableProbability(0);
        }
    }

    @Test
    void shouldClassifyInjectedFaultsAsTransient() {
        emulator.faults().setUnavailableProbability(1);
        assertThatThrownBy(() -> client.lookup("/", "buckets"))
                .isInstanceOf(SeaweedCallException.class)
                .extracting(e -> ((SeaweedCallException) e).kind()).isEqualTo(FailureKind.TRANSIENT);
        emulator.faults().setUnavailableProbability(0);
        emulator.faults().setLatency(Duration.ofMillis(500));
        try (FilerClient impatient = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT,
                Duration.ofMillis(100))) {
            assertThatThrownBy(() -> impatient.lookup("/", "buckets"))
                    .extracting(e -> ((SeaweedCallException) e).kind()).isEqualTo(FailureKind.TRANSIENT);
        } finally {
            emulator.faults().setLatency(Duration.ZERO);
        }
    }

    @Test
    void shouldDeliverALateAnswerAsTheFilerReadItWhenTheCallWasMade() throws Exception {
        write("/buckets/b/a", "k");
        write("/buckets/b/other", "x");
        emulator.faults().answerLate(java.util.Set.of("ListEntries"), "/buckets/b/a", Duration.ofMillis(800));
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            var listing = caller.submit(() -> client.listPage("/buckets/b/a", "", "", true, 10));
            Thread.sleep(300);
            assertThat(listing).as("held back").isNotDone();
            assertThat(client.listPage("/buckets/b/other", "", "", true, 10)).as("another directory's, on time")
                    .extracting(Entry::getName).containsExactly("x");
            emulator.store().delete("/buckets/b/a", "k", false, true, 0);
            emulator.faults().answerOnTime();
            assertThat(client.lookup("/buckets/b/a", "k")).isEmpty();
            assertThat(listing.get(10, TimeUnit.SECONDS)).as("as read before the delete").extracting(Entry::getName)
                    .containsExactly("k");
        } finally {
            caller.shutdownNow();
        }
    }

    /**
     * Heartbeats every 200 ms against a 3 s idle timeout: a fifteen-fold margin, so only a real loss of heartbeats,
     * not a loaded machine, can make it reconnect. The wait ends once the stream has carried no event for longer
     * than the idle timeout while the filer kept speaking.
     */
    @Test
    void shouldStayConnectedWhileOnlyHeartbeatsArriveForLongerThanTheIdleTimeout() throws Exception {
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                .withIdleTimeout(Duration.ofSeconds(3)))) {
            write("/buckets/b", "first");
            assertThat(take(s, 2)).hasSize(2);
            long quietSince = System.nanoTime();
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(50))
                    .until(() -> System.nanoTime() - quietSince > Duration.ofSeconds(4).toNanos()
                            && s.silentFor().compareTo(Duration.ofSeconds(1)) < 0);
            assertThat(s.reconnects()).isZero();
        }
    }

    /**
     * A consumer slower than the idle timeout (its buffer full, so nothing asked of the stream) is not a silent filer:
     * no reconnect, nothing lost. Reconnecting there only churned streams under load.
     */
    @Test
    void shouldNotTakeAFullBufferForASilentFiler() throws Exception {
        int written = 2_000;
        for (int i = 0; i < written; i++) {
            write("/buckets/b", "o" + i);
        }
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                .withBufferSize(16).withIdleTimeout(Duration.ofMillis(300)))) {
            await().atMost(Duration.ofSeconds(10)).until(() -> s.bufferedEvents() >= 16);
            Thread.sleep(1_500);   // nobody polls for five idle timeouts
            assertThat(s.reconnects()).isZero();
            List<SubscribeMetadataResponse> got = take(s, written + 1);
            assertThat(got.stream().map(FilerGrpcTest::name).skip(1).toList()).containsExactlyElementsOf(
                    java.util.stream.IntStream.range(0, written).mapToObj(i -> "o" + i).toList());
        }
    }

    @Test
    void shouldReconnectWhenTheStreamGoesSilent() throws Exception {
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                .withIdleTimeout(Duration.ofSeconds(1)))) {
            write("/buckets/b", "first");
            assertThat(take(s, 2)).hasSize(2);
            // Every (re)connection now answers only after 1.5 s: silence past the idle timeout each time.
            emulator.faults().setLatency(Duration.ofMillis(1500));
            emulator.dropSubscriptions();
            await().atMost(Duration.ofSeconds(15)).until(() -> s.reconnects() >= 2);
            emulator.faults().setLatency(Duration.ZERO);
            write("/buckets/b", "after");
            assertThat(take(s, 1)).extracting(FilerGrpcTest::name).containsExactly("after");
        }
    }

    @Test
    void shouldLogEveryConcurrentWriteOnceInOneStrictOrder() throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(8);
        for (int w = 0; w < 8; w++) {
            int writer = w;
            writers.submit(() -> {
                for (int i = 0; i < 250; i++) {
                    write("/buckets/w" + writer, "o" + i);
                }
                return null;
            });
        }
        writers.shutdown();
        assertThat(writers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        try (MetadataSubscription s = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0))) {
            List<SubscribeMetadataResponse> got = take(s, 8 + 8 * 250);
            assertThat(got).hasSize(8 + 8 * 250);
            assertThat(got.stream().map(e -> e.getDirectory() + "/" + name(e)).distinct().count()).isEqualTo(got.size());
            for (int i = 1; i < got.size(); i++) {
                assertThat(got.get(i).getTsNs()).isGreaterThan(got.get(i - 1).getTsNs());
            }
        }
        for (int w = 0; w < 8; w++) {
            assertThat(emulator.store().list("/buckets/w" + w, "", "", false, 0)).hasSize(250);
        }
    }
}
