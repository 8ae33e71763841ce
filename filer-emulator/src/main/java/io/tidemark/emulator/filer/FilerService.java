package io.tidemark.emulator.filer;

import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
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
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code filer_pb.SeaweedFiler} over a {@link FilerStore}, answering as a SeaweedFS filer does. */
public final class FilerService extends SeaweedFilerGrpc.SeaweedFilerImplBase {

    private static final Logger log = LoggerFactory.getLogger(FilerService.class);

    private final FilerStore store;
    private final String bucketsDirectory;
    private final Duration heartbeatInterval;
    /** Open subscriptions and whether a fault knob asked to break each; only its own thread ends a stream. */
    private final Map<ServerCallStreamObserver<SubscribeMetadataResponse>, AtomicBoolean> subscribers =
            new ConcurrentHashMap<>();

    public FilerService(FilerStore store, String bucketsDirectory, Duration heartbeatInterval) {
        this.store = store;
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
            SubscribeMetadataResponse event = store.create(request.getDirectory(), request.getEntry(), request.getOExcl());
            answer.setMetadataEvent(event).setLogTsNs(event.getTsNs()).setLogSignature(store.signature());
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
            SubscribeMetadataResponse event = store.update(request.getDirectory(), request.getEntry());
            response.onNext(UpdateEntryResponse.newBuilder().setMetadataEvent(event).setLogTsNs(event.getTsNs())
                    .setLogSignature(store.signature()).build());
            response.onCompleted();
        } catch (FilerException e) {
            response.onError(Status.UNKNOWN.withDescription(e.getMessage()).asRuntimeException());
        }
    }

    @Override
    public void deleteEntry(DeleteEntryRequest request, StreamObserver<DeleteEntryResponse> response) {
        DeleteEntryResponse.Builder answer = DeleteEntryResponse.newBuilder();
        try {
            store.delete(request.getDirectory(), request.getName(), request.getIsRecursive(), request.getIsDeleteData(),
                    request.getIfNotModifiedAfter()).ifPresent(answer::setMetadataEvent);
        } catch (FilerException e) {
            answer.setError(e.getMessage());
        }
        response.onNext(answer.build());
        response.onCompleted();
    }

    @Override
    public void ping(PingRequest request, StreamObserver<PingResponse> response) {
        long start = nanos(store.clock().instant());
        response.onNext(PingResponse.newBuilder().setStartTimeNs(start).setRemoteTimeNs(start)
                .setStopTimeNs(nanos(store.clock().instant())).build());
        response.onCompleted();
    }

    @Override
    public void getFilerConfiguration(GetFilerConfigurationRequest request,
                                      StreamObserver<GetFilerConfigurationResponse> response) {
        response.onNext(GetFilerConfigurationResponse.newBuilder()
                .setDirBuckets(bucketsDirectory)
                .setSignature(store.signature())
                .setMaxMb(4)
                .setVersion("tidemark-filer-emulator")
                .build());
        response.onCompleted();
    }

    @Override
    public void subscribeMetadata(SubscribeMetadataRequest request, StreamObserver<SubscribeMetadataResponse> response) {
        stream(request, (ServerCallStreamObserver<SubscribeMetadataResponse>) response);
    }

    @Override
    public void subscribeLocalMetadata(SubscribeMetadataRequest request,
                                       StreamObserver<SubscribeMetadataResponse> response) {
        stream(request, (ServerCallStreamObserver<SubscribeMetadataResponse>) response);
    }

    /**
     * Streams history from {@code since_ns} (inclusive), then live events, in log order. The call thread blocks,
     * which gRPC's default executor allows; it waits for the client's flow-control window instead of buffering.
     */
    private void stream(SubscribeMetadataRequest request, ServerCallStreamObserver<SubscribeMetadataResponse> out) {
        MetaLog metaLog = store.metaLog();
        SubscriptionFilter filter = new SubscriptionFilter(request);
        Object ready = new Object();
        out.setOnReadyHandler(() -> {
            synchronized (ready) {
                ready.notifyAll();
            }
        });
        out.setOnCancelHandler(metaLog::wakeReaders);
        AtomicBoolean dropped = new AtomicBoolean();
        subscribers.put(out, dropped);
        long untilNs = request.getUntilNs();
        long lastSentTs = request.getSinceNs();
        try {
            int next = metaLog.firstAtOrAfter(request.getSinceNs());
            while (!out.isCancelled()) {
                if (dropped.get()) {
                    out.onError(Status.UNAVAILABLE.withDescription("subscription dropped by the emulator")
                            .asRuntimeException());
                    return;
                }
                if (next < metaLog.size()) {
                    SubscribeMetadataResponse event = metaLog.get(next++);
                    if (untilNs > 0 && event.getTsNs() > untilNs) {
                        break;
                    }
                    if (filter.matches(event)) {
                        awaitReady(out, ready);
                        out.onNext(event);
                        lastSentTs = event.getTsNs();
                    }
                    continue;
                }
                if (untilNs > 0 && nanos(store.clock().instant()) > untilNs) {
                    break;
                }
                if (!metaLog.awaitEvent(next, heartbeatInterval.toMillis()) && request.getClientSupportsIdleHeartbeat()) {
                    awaitReady(out, ready);
                    out.onNext(SubscribeMetadataResponse.newBuilder().setTsNs(lastSentTs)
                            .setFlushedTsNs(metaLog.lastTsNs()).build());
                }
            }
            if (!out.isCancelled()) {
                out.onCompleted();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            out.onError(Status.CANCELLED.withDescription("the filer is shutting down").asRuntimeException());
        } catch (RuntimeException e) {
            if (!out.isCancelled()) {
                log.warn("subscription {} ended: {}", request.getClientName(), e.toString());
                out.onError(Status.UNAVAILABLE.withDescription(e.getMessage()).asRuntimeException());
            }
        } finally {
            subscribers.remove(out);
        }
    }

    private static void awaitReady(ServerCallStreamObserver<?> out, Object ready) throws InterruptedException {
        synchronized (ready) {
            while (!out.isReady() && !out.isCancelled()) {
                ready.wait(100);
            }
        }
    }

    /** Breaks every open subscription with UNAVAILABLE, as a filer restart would; a fault knob for tests. */
    public int dropSubscriptions() {
        subscribers.values().forEach(flag -> flag.set(true));
        store.metaLog().wakeReaders();
        return subscribers.size();
    }

    private static long nanos(Instant instant) {
        return instant.getEpochSecond() * 1_000_000_000L + instant.getNano();
    }

}
