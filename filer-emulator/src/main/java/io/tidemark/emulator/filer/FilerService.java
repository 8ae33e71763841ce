package io.tidemark.emulator.filer;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.pb.FilerProto.CreateEntryRequest;
import io.tidemark.seaweed.pb.FilerProto.CreateEntryResponse;
import io.tidemark.seaweed.pb.FilerProto.DeleteEntryRequest;
import io.tidemark.seaweed.pb.FilerProto.DeleteEntryResponse;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.GetFilerConfigurationRequest;
import io.tidemark.seaweed.pb.FilerProto.GetFilerConfigurationResponse;
import io.tidemark.seaweed.pb.FilerProto.ListEntriesRequest;
import io.tidemark.seaweed.pb.FilerProto.ListEntriesResponse;
import io.tidemark.seaweed.pb.FilerProto.LookupDirectoryEntryRequest;
import io.tidemark.seaweed.pb.FilerProto.LookupDirectoryEntryResponse;
import io.tidemark.seaweed.pb.FilerProto.PingRequest;
import io.tidemark.seaweed.pb.FilerProto.PingResponse;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.seaweed.pb.FilerProto.UpdateEntryRequest;
import io.tidemark.seaweed.pb.FilerProto.UpdateEntryResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code filer_pb.SeaweedFiler} of one filer over the shared {@link FilerStore}, answering as a SeaweedFS filer does:
 * the mutations it receives are recorded in its own meta-log; {@code SubscribeLocalMetadata} streams that log and
 * {@code SubscribeMetadata} the filer's aggregated one once it has peers (see Subscription).
 */
public final class FilerService extends SeaweedFilerGrpc.SeaweedFilerImplBase {

    private static final Logger log = LoggerFactory.getLogger(FilerService.class);
    /** SeaweedFS packs at most this many events into one response. */
    static final int MAX_BATCH = 256;

    private final FilerStore store;
    private final FilerNode self;
    private final String bucketsDirectory;
    private final Duration heartbeatInterval;
    /** Open subscriptions and whether a fault knob asked to break each; only its own thread ends a stream. */
    private final Map<ServerCallStreamObserver<SubscribeMetadataResponse>, AtomicBoolean> subscribers =
            new ConcurrentHashMap<>();
    private final ExecutorService streams = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "filer-subscription-stream");
        t.setDaemon(true);
        return t;
    });

    /** The service of the store's first filer. */
    public FilerService(FilerStore store, String bucketsDirectory, Duration heartbeatInterval) {
        this(store, store.filer(0), bucketsDirectory, heartbeatInterval);
    }

    public FilerService(FilerStore store, FilerNode self, String bucketsDirectory, Duration heartbeatInterval) {
        this.store = store;
        this.self = self;
        this.bucketsDirectory = bucketsDirectory;
        this.heartbeatInterval = heartbeatInterval;
    }

    @Override
    public void lookupDirectoryEntry(LookupDirectoryEntryRequest request,
                                     StreamObserver<LookupDirectoryEntryResponse> response) {
        Optional<Entry> entry = store.lookup(request.getDirectory(), request.getName());
        if (entry.isEmpty()) {
            // SeaweedFS answers a missing entry with a plain error (UNKNOWN) carrying this text.
            response.onError(Status.UNKNOWN.withDescription(FilerException.NOT_FOUND + ": "
                    + FilerPaths.join(FilerPaths.normalize(request.getDirectory()), request.getName())).asRuntimeException());
            return;
        }
        response.onNext(LookupDirectoryEntryResponse.newBuilder().setEntry(entry.get()).build());
        response.onCompleted();
    }

    @Override
    public void listEntries(ListEntriesRequest request, StreamObserver<ListEntriesResponse> response) {
        for (Entry entry : store.list(request.getDirectory(), request.getPrefix(), request.getStartFromFileName(),
                request.getInclusiveStartFrom(), request.getLimit())) {
            Entry sent = request.getOmitChunks() ? entry.toBuilder().clearChunks().build() : entry;
            response.onNext(ListEntriesResponse.newBuilder().setEntry(sent).build());
        }
        response.onCompleted();
    }

    @Override
    public void createEntry(CreateEntryRequest request, StreamObserver<CreateEntryResponse> response) {
        CreateEntryResponse.Builder answer = CreateEntryResponse.newBuilder();
        try {
            SubscribeMetadataResponse event = store.through(self,
                    () -> store.create(request.getDirectory(), request.getEntry(), request.getOExcl()));
            answer.setMetadataEvent(event).setLogTsNs(event.getTsNs()).setLogSignature(self.signature());
        } catch (FilerException e) {
            // Creation errors travel in the response, with a code where SeaweedFS has one.
            answer.setError(e.getMessage()).setErrorCode(e.code());
        }
        response.onNext(answer.build());
        response.onCompleted();
    }

    @Override
    public void updateEntry(UpdateEntryRequest request, StreamObserver<UpdateEntryResponse> response) {
        try {
            SubscribeMetadataResponse event = store.through(self,
                    () -> store.update(request.getDirectory(), request.getEntry()));
            response.onNext(UpdateEntryResponse.newBuilder().setMetadataEvent(event).setLogTsNs(event.getTsNs())
                    .setLogSignature(self.signature()).build());
            response.onCompleted();
        } catch (FilerException e) {
            response.onError(Status.UNKNOWN.withDescription(e.getMessage()).asRuntimeException());
        }
    }

    @Override
    public void deleteEntry(DeleteEntryRequest request, StreamObserver<DeleteEntryResponse> response) {
        DeleteEntryResponse.Builder answer = DeleteEntryResponse.newBuilder();
        try {
            store.through(self, () -> store.delete(request.getDirectory(), request.getName(), request.getIsRecursive(),
                    request.getIsDeleteData(), request.getIfNotModifiedAfter())).ifPresent(answer::setMetadataEvent);
        } catch (FilerException e) {
            answer.setError(e.getMessage());
        }
        response.onNext(answer.build());
        response.onCompleted();
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingResponse> response) {
        long start = EpochNanos.of(self.clock().instant());
        response.onNext(PingResponse.newBuilder().setStartTimeNs(start).setRemoteTimeNs(start)
                .setStopTimeNs(EpochNanos.of(self.clock().instant())).build());
        response.onCompleted();
    }

    @Override
    public void getFilerConfiguration(GetFilerConfigurationRequest request,
                                      StreamObserver<GetFilerConfigurationResponse> response) {
        response.onNext(GetFilerConfigurationResponse.newBuilder()
                .setDirBuckets(bucketsDirectory)
                .setSignature(self.signature())
                .setMaxMb(4)
                .setVersion("tidemark-filer-emulator")
                .build());
        response.onCompleted();
    }

    @Override
    public void subscribeMetadata(SubscribeMetadataRequest request, StreamObserver<SubscribeMetadataResponse> response) {
        // A filer without peers has nothing to aggregate: its aggregated stream is its own log.
        MetaLog memory = store.filers().size() > 1 ? self.aggregated : self.log;
        startStream(request, memory, (ServerCallStreamObserver<SubscribeMetadataResponse>) response,
                () -> Duration.ZERO);
    }

    @Override
    public void subscribeLocalMetadata(SubscribeMetadataRequest request,
                                       StreamObserver<SubscribeMetadataResponse> response) {
        if (self.localStreamsRefused()) {
            response.onError(Status.UNAVAILABLE.withDescription("the filer's stream is out of reach")
                    .asRuntimeException());
            return;
        }
        startStream(request, self.log, (ServerCallStreamObserver<SubscribeMetadataResponse>) response,
                self::localStreamDelay);
    }

    /**
     * Streams on a thread of its own: gRPC runs a call's callbacks (readiness, cancellation) one at a time on
     * one executor, so a loop that blocked the handler would never hear that the client is ready for more.
     */
    private void startStream(SubscribeMetadataRequest request, MetaLog memory,
                             ServerCallStreamObserver<SubscribeMetadataResponse> out, Supplier<Duration> delay) {
        List<MetaLog> disk = store.filers().stream().map(f -> f.log).toList();
        Subscription subscription = new Subscription(request, memory, disk, out, delay);
        out.setOnReadyHandler(subscription::wake);
        out.setOnCancelHandler(subscription::cancel);
        subscribers.put(out, subscription.dropped);
        streams.execute(subscription);
    }

    /**
     * One subscriber: history from {@code since_ns}, then live events, in log order, read as upstream reads them
     * (filer_notify_read.go, log_buffer.go). A {@code since_ns} within the memory window is inclusive. An older one
     * is served from the log files first, where it is exclusive ({@code ts_ns > since_ns}); when the disk pass
     * reaches the memory window, reading goes on from memory at the last timestamp sent, inclusive — the events at
     * that timestamp are sent again. For a client that supports batching, events already waiting go out together in
     * one response's {@code events}.
     *
     * <p>"Disk" is every filer's log merged by {@code ts_ns}, as the persisted logs of filers sharing a store are read
     * ({@link MergedLogRead}); "memory" is the filer's own log for a local subscription, or its aggregated log, in
     * arrival order, for an aggregated one. So a local subscription catching up from disk gets its peers' events too,
     * and an aggregated one delivers a late peer's events with their original, older, stamps.
     */
    private final class Subscription implements Runnable {
        private final SubscribeMetadataRequest request;
        private final MetaLog memory;
        private final List<MetaLog> diskLogs;
        private final ServerCallStreamObserver<SubscribeMetadataResponse> out;
        private final SubscriptionFilter filter;
        private final Supplier<Duration> delay;
        private final AtomicBoolean dropped = new AtomicBoolean();
        private final Object readiness = new Object();
        private volatile boolean cancelled;

        Subscription(SubscribeMetadataRequest request, MetaLog memory, List<MetaLog> diskLogs,
                     ServerCallStreamObserver<SubscribeMetadataResponse> out, Supplier<Duration> delay) {
            this.request = request;
            this.delay = delay;
            this.memory = memory;
            this.diskLogs = diskLogs;
            this.out = out;
            this.filter = new SubscriptionFilter(request);
        }

        void wake() {
            synchronized (readiness) {
                readiness.notifyAll();
            }
        }

        void cancel() {
            cancelled = true;
            wake();
            memory.wakeReaders();
        }

        @Override
        public void run() {
            MetaLog metaLog = memory;
            long untilNs = request.getUntilNs();
            long lastSentTs = request.getSinceNs();
            long lastReadTs = request.getSinceNs(); // sent or filtered out: where upstream's lastReadTime stands
            int batchLimit = request.getClientSupportsBatching() ? MAX_BATCH : 1;
            try {
                int next = metaLog.firstAtOrAfter(request.getSinceNs());
                // Upstream's disk pass reads every flushed event. Without a flush interval the emulator flushes
                // whatever is older than its memory window, and the pass ends where the logs end when it starts; with
                // one, a local subscription always reads the files first, as upstream's does (FilerStore).
                boolean flushed = flushModel();
                long ownFlushedBefore = flushed ? store.flushedBeforeNs(self) : Long.MAX_VALUE;
                MergedLogRead disk = flushed ? new MergedLogRead(diskLogs, request.getSinceNs(), flushedBefore())
                        : metaLog.inMemory(request.getSinceNs()) ? null
                        : new MergedLogRead(diskLogs, request.getSinceNs());
                boolean ended = false;
                while (!cancelled && !ended) {
                    if (dropped.get()) {
                        out.onError(Status.UNAVAILABLE.withDescription("subscription dropped by the emulator")
                                .asRuntimeException());
                        return;
                    }
                    // Purged under a reader: it goes on with what is left, as a filer's purged log files are gone.
                    next = Math.max(next, metaLog.firstIndex());
                    if (disk != null && disk.atEnd()) {
                        if (flushed) {
                            // On from memory at the last stamp the files gave, across every filer's files: this
                            // filer's events not flushed yet and stamped before that are never sent (upstream).
                            next = metaLog.firstAtOrAfter(lastReadTs);
                            self.skippedByCatchUp(next - metaLog.firstAtOrAfter(
                                    Math.max(request.getSinceNs() + 1, ownFlushedBefore)));
                            disk = null;
                        } else if (!metaLog.inMemory(lastReadTs)) {
                            // Upstream's ResumeFromDiskError: while the disk pass ran, the memory window moved past
                            // where it ended, so the pass goes on over what has been flushed since.
                            disk.extend();
                        } else {
                            next = metaLog.firstAtOrAfter(lastReadTs);
                            disk = null;
                        }
                    }
                    List<SubscribeMetadataResponse> batch = new ArrayList<>();
                    int available = metaLog.size();
                    while (batch.size() < batchLimit) {
                        SubscribeMetadataResponse event = disk != null ? disk.peek()
                                : next < available ? metaLog.get(next) : null;
                        if (event == null) {
                            break;
                        }
                        if (untilNs > 0 && event.getTsNs() > untilNs) {
                            ended = true;
                            break;
                        }
                        if (disk != null) {
                            disk.advance();
                        } else {
                            next++;
                        }
                        lastReadTs = event.getTsNs();
                        if (filter.matches(event)) {
                            batch.add(event);
                        }
                    }
                    if (!batch.isEmpty()) {
                        holdBack(batch.get(batch.size() - 1).getTsNs());
                        awaitReady();
                        out.onNext(batch.size() == 1 ? batch.get(0)
                                : batch.get(0).toBuilder().addAllEvents(batch.subList(1, batch.size())).build());
                        lastSentTs = batch.get(batch.size() - 1).getTsNs();
                        continue;
                    }
                    if (ended || (disk != null ? !disk.atEnd() : next < available)) {
                        continue;
                    }
                    if (untilNs > 0 && EpochNanos.of(store.clock().instant()) > untilNs) {
                        break;
                    }
                    int awaited = disk != null ? metaLog.size() : next;
                    if (!metaLog.awaitEvent(awaited, heartbeatInterval.toMillis(), () -> cancelled || dropped.get())
                            && request.getClientSupportsIdleHeartbeat() && !cancelled && !dropped.get()) {
                        awaitReady();
                        out.onNext(SubscribeMetadataResponse.newBuilder().setTsNs(lastSentTs)
                                .setFlushedTsNs(flushed ? store.flushedBeforeNs(self) - 1 : metaLog.lastTsNs())
                                .build());
                    }
                }
                if (!cancelled) {
                    out.onCompleted();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                out.onError(Status.UNAVAILABLE.withDescription("the filer is shutting down").asRuntimeException());
            } catch (RuntimeException e) {
                if (!cancelled) {
                    log.warn("subscription {} ended: {}", request.getClientName(), e.toString());
                    out.onError(Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException());
                }
            } finally {
                subscribers.remove(out);
            }
        }

        /** Whether this stream reads as upstream's local subscription does over log files flushed on a schedule. */
        private boolean flushModel() {
            return store.logFlushInterval() != null && memory == self.log;
        }

        /** Per disk log (every filer's, in the store's order): the stamp before which it has been flushed. */
        private long[] flushedBefore() {
            List<FilerNode> filers = store.filers();
            long[] before = new long[diskLogs.size()];
            for (int i = 0; i < before.length; i++) {
                before[i] = i < filers.size() ? store.flushedBeforeNs(filers.get(i)) : Long.MAX_VALUE;
            }
            return before;
        }

        /** Waits until an event stamped {@code tsNs} may go out under the filer's stream delay. */
        private void holdBack(long tsNs) throws InterruptedException {
            // Not delayed, an event goes at once, even one stamped ahead of the filer's clock (after a step back).
            while (!cancelled && !dropped.get() && !delay.get().isZero()) {
                long waitNanos = tsNs + delay.get().toNanos() - EpochNanos.of(self.clock().instant());
                if (waitNanos <= 0) {
                    return;
                }
                Thread.sleep(Math.max(1, Math.min(50, waitNanos / 1_000_000)));
            }
        }

        private void awaitReady() throws InterruptedException {
            synchronized (readiness) {
                while (!out.isReady() && !cancelled) {
                    readiness.wait(100);
                }
            }
        }
    }

    /** Breaks every open subscription with UNAVAILABLE, as a filer restart would; a fault knob for tests. */
    public int dropSubscriptions() {
        subscribers.values().forEach(flag -> flag.set(true));
        self.log.wakeReaders();
        self.aggregated.wakeReaders();
        return subscribers.size();
    }

    /** Ends every stream thread; called when the emulator stops. */
    public void close() {
        dropSubscriptions();
        streams.shutdown();
        try {
            if (!streams.awaitTermination(5, TimeUnit.SECONDS)) {
                streams.shutdownNow();
            }
        } catch (InterruptedException e) {
            streams.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }

}
