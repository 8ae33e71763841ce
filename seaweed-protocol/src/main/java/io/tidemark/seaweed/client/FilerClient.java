package io.tidemark.seaweed.client;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.ListenableFuture;
import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.GetFilerConfigurationRequest;
import io.tidemark.seaweed.pb.FilerProto.GetFilerConfigurationResponse;
import io.tidemark.seaweed.pb.FilerProto.ListEntriesRequest;
import io.tidemark.seaweed.pb.FilerProto.ListEntriesResponse;
import io.tidemark.seaweed.pb.FilerProto.LookupDirectoryEntryRequest;
import io.tidemark.seaweed.pb.FilerProto.LookupDirectoryEntryResponse;
import io.tidemark.seaweed.pb.FilerProto.PingRequest;
import io.tidemark.seaweed.pb.FilerProto.PingResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The filer operations Tidemark needs: look up an entry, list a directory page by page, find the buckets
 * directory, and subscribe to the meta-log. Every unary call carries the configured deadline.
 */
public final class FilerClient extends GrpcClient {

    /** The text a SeaweedFS filer puts in the error of a lookup for a missing entry. */
    static final String NOT_FOUND_MESSAGE = "no entry is found in filer store";
    static final String DEFAULT_BUCKETS_DIRECTORY = "/buckets";

    private volatile String bucketsDirectory;

    /** Uses a channel the caller owns and closes. */
    public FilerClient(Channel channel, Duration deadline) {
        this(channel, null, deadline);
    }

    private FilerClient(Channel channel, ManagedChannel owned, Duration deadline) {
        super(channel, owned, deadline);
    }

    public static FilerClient connect(String address, GrpcTls tls, Duration deadline) {
        ManagedChannel channel = GrpcChannels.open(address, tls);
        return new FilerClient(channel, channel, deadline);
    }

    private SeaweedFilerGrpc.SeaweedFilerBlockingStub stub() {
        return SeaweedFilerGrpc.newBlockingStub(channel).withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The entry, or empty when the filer has none at that path. */
    public Optional<Entry> lookup(String directory, String name) {
        try {
            return Optional.of(stub().lookupDirectoryEntry(LookupDirectoryEntryRequest.newBuilder()
                    .setDirectory(directory).setName(name).build()).getEntry());
        } catch (StatusRuntimeException e) {
            if (isNotFound(e)) {
                return Optional.empty();
            }
            throw new SeaweedCallException("LookupDirectoryEntry " + directory + "/" + name, e);
        }
    }

    /** {@link #lookup} without blocking: completes with the entry or empty, or with a {@link SeaweedCallException}. */
    public CompletableFuture<Optional<Entry>> lookupAsync(String directory, String name) {
        CompletableFuture<Optional<Entry>> result = new CompletableFuture<>();
        Futures.addCallback(SeaweedFilerGrpc.newFutureStub(channel)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .lookupDirectoryEntry(LookupDirectoryEntryRequest.newBuilder().setDirectory(directory).setName(name)
                        .build()), new FutureCallback<>() {
                    @Override
                    public void onSuccess(LookupDirectoryEntryResponse response) {
                        result.complete(Optional.of(response.getEntry()));
                    }

                    @Override
                    public void onFailure(Throwable error) {
                        StatusRuntimeException e = error instanceof StatusRuntimeException s ? s
                                : Status.fromThrowable(error).asRuntimeException();
                        if (isNotFound(e)) {
                            result.complete(Optional.empty());
                        } else {
                            result.completeExceptionally(new SeaweedCallException("LookupDirectoryEntry " + directory
                                    + "/" + name, e));
                        }
                    }
                }, MoreExecutors.directExecutor());
        return result;
    }

    /** SeaweedFS reports a missing entry as an UNKNOWN error with a fixed message, not as NOT_FOUND. */
    public static boolean isNotFound(StatusRuntimeException e) {
        Status status = e.getStatus();
        return status.getCode() == Status.Code.NOT_FOUND
                || (status.getDescription() != null && status.getDescription().contains(NOT_FOUND_MESSAGE));
    }

    /**
     * One page of a directory in name order.
     *
     * @param startFrom list names after this one ({@code inclusive}: from this one), or empty for the start
     */
    public List<Entry> listPage(String directory, String prefix, String startFrom, boolean inclusive, int limit) {
        return awaitPage(directory, listPageAsync(directory, prefix, startFrom, inclusive, limit));
    }

    private CompletableFuture<List<Entry>> listPageAsync(String directory, String prefix, String startFrom,
                                                         boolean inclusive, int limit) {
        ListEntriesRequest request = ListEntriesRequest.newBuilder()
                .setDirectory(directory).setPrefix(prefix).setStartFromFileName(startFrom)
                .setInclusiveStartFrom(inclusive).setLimit(limit).build();
        // The async stub takes each streamed entry on the transport's thread; a blocking iterator would park
        // and wake the caller once per entry, which costs more than the entry itself.
        PageCollector collector = new PageCollector(Math.min(limit == 0 ? 1024 : limit, 1024));
        SeaweedFilerGrpc.newStub(channel).withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .listEntries(request, collector);
        return collector.page;
    }

    private static List<Entry> awaitPage(String directory, CompletableFuture<List<Entry>> page) {
        try {
            return page.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SeaweedCallException("ListEntries " + directory, Status.CANCELLED.withCause(e).asRuntimeException());
        } catch (ExecutionException e) {
            throw new SeaweedCallException("ListEntries " + directory, Status.fromThrowable(e.getCause())
                    .asRuntimeException());
        }
    }

    /** Every entry of a directory, fetched lazily a page at a time. */
    public Iterable<Entry> listAll(String directory, String prefix, int pageSize) {
        return listAll(directory, prefix, "", pageSize);
    }

    /**
     * Every entry of a directory after {@code startAfter} (in the filer's order; "" from the first), fetched a page
     * at a time, the next page asked for as soon as the one before arrives so the filer's latency overlaps with the
     * caller's work on the entries.
     */
    public Iterable<Entry> listAll(String directory, String prefix, String startAfter, int pageSize) {
        return () -> new Iterator<>() {
            private List<Entry> page = listPage(directory, prefix, startAfter, false, pageSize);
            private CompletableFuture<List<Entry>> following = after(page);
            private int next;

            private CompletableFuture<List<Entry>> after(List<Entry> current) {
                return current.size() < pageSize ? null
                        : listPageAsync(directory, prefix, current.get(current.size() - 1).getName(), false, pageSize);
            }

            @Override
            public boolean hasNext() {
                if (next < page.size()) {
                    return true;
                }
                if (following == null) {
                    return false;
                }
                page = awaitPage(directory, following);
                following = after(page);
                next = 0;
                return !page.isEmpty();
            }

            @Override
            public Entry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return page.get(next++);
            }
        };
    }

    public GetFilerConfigurationResponse configuration() {
        try {
            return stub().getFilerConfiguration(GetFilerConfigurationRequest.getDefaultInstance());
        } catch (StatusRuntimeException e) {
            throw new SeaweedCallException("GetFilerConfiguration", e);
        }
    }

    /** {@link #configuration()} without blocking; fails with a {@link SeaweedCallException}. */
    public CompletableFuture<GetFilerConfigurationResponse> configurationAsync() {
        return answered("GetFilerConfiguration", futureStub()
                .getFilerConfiguration(GetFilerConfigurationRequest.getDefaultInstance()));
    }

    /**
     * Where the S3 gateway keeps its buckets; {@code /buckets} when the filer does not say. Asked once: a filer's
     * buckets directory is set at its start.
     */
    public String bucketsDirectory() {
        String known = bucketsDirectory;
        if (known == null) {
            known = bucketsDirectoryOf(configuration());
            bucketsDirectory = known;
        }
        return known;
    }

    /** {@link #bucketsDirectory()} without blocking; fails with a {@link SeaweedCallException}. */
    public CompletableFuture<String> bucketsDirectoryAsync() {
        String known = bucketsDirectory;
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        return answered("GetFilerConfiguration", futureStub()
                .getFilerConfiguration(GetFilerConfigurationRequest.getDefaultInstance())).thenApply(response -> {
                    bucketsDirectory = bucketsDirectoryOf(response);
                    return bucketsDirectory;
                });
    }

    /**
     * The filer's {@code Ping} with no target: its answer carries the filer's own clock ({@code start_time_ns},
     * {@code stop_time_ns}, taken as it handled the call). Fails with a {@link SeaweedCallException}.
     */
    public CompletableFuture<PingResponse> pingAsync() {
        return answered("Ping", futureStub().ping(PingRequest.getDefaultInstance()));
    }

    private SeaweedFilerGrpc.SeaweedFilerFutureStub futureStub() {
        return SeaweedFilerGrpc.newFutureStub(channel).withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A unary call's answer, or its failure as a {@link SeaweedCallException} naming {@code call}. */
    private static <T> CompletableFuture<T> answered(String call, ListenableFuture<T> future) {
        CompletableFuture<T> result = new CompletableFuture<>();
        Futures.addCallback(future, new FutureCallback<>() {
            @Override
            public void onSuccess(T response) {
                result.complete(response);
            }

            @Override
            public void onFailure(Throwable error) {
                result.completeExceptionally(new SeaweedCallException(call, error instanceof StatusRuntimeException e
                        ? e : Status.fromThrowable(error).asRuntimeException()));
            }
        }, MoreExecutors.directExecutor());
        return result;
    }

    private static String bucketsDirectoryOf(GetFilerConfigurationResponse configuration) {
        String dir = configuration.getDirBuckets();
        return dir.isEmpty() ? DEFAULT_BUCKETS_DIRECTORY : dir;
    }

    /** Starts a reconnecting subscription to the filer's meta-log. */
    public MetadataSubscription subscribe(SubscriptionOptions options) {
        return MetadataSubscription.start(SeaweedFilerGrpc.newStub(channel), options);
    }

    private static final class PageCollector implements StreamObserver<ListEntriesResponse> {
        private final List<Entry> entries;
        private final CompletableFuture<List<Entry>> page = new CompletableFuture<>();

        PageCollector(int expected) {
            entries = new ArrayList<>(expected);
        }

        @Override
        public void onNext(ListEntriesResponse response) {
            entries.add(response.getEntry());
        }

        @Override
        public void onError(Throwable t) {
            page.completeExceptionally(t);
        }

        @Override
        public void onCompleted() {
            page.complete(entries);
        }
    }
}
