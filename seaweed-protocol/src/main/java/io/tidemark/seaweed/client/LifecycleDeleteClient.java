package io.tidemark.seaweed.client;

import com.google.common.util.concurrent.FutureCallback;
import com.google.common.util.concurrent.Futures;
import com.google.common.util.concurrent.MoreExecutors;
import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import io.tidemark.seaweed.pb.SeaweedS3LifecycleInternalGrpc;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Calls the S3 gateway's {@code LifecycleDelete}. The gateway answers every decision with an outcome; only a
 * failure of the call itself raises, classified as transient (retry) or permanent.
 */
public final class LifecycleDeleteClient extends GrpcClient {

    public LifecycleDeleteClient(Channel channel, Duration deadline) {
        this(channel, null, deadline);
    }

    private LifecycleDeleteClient(Channel channel, ManagedChannel owned, Duration deadline) {
        super(channel, owned, deadline);
    }

    public static LifecycleDeleteClient connect(String address, GrpcTls tls, Duration deadline) {
        ManagedChannel channel = GrpcChannels.open(address, tls);
        return new LifecycleDeleteClient(channel, channel, deadline);
    }

    /**
     * The same call without blocking a thread: the future completes with the gateway's answer, or exceptionally
     * with a {@link SeaweedCallException} that says whether trying again can help.
     */
    public CompletableFuture<LifecycleDeleteResponse> deleteAsync(LifecycleDeleteRequest request) {
        CompletableFuture<LifecycleDeleteResponse> result = new CompletableFuture<>();
        Futures.addCallback(SeaweedS3LifecycleInternalGrpc.newFutureStub(channel)
                .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                .lifecycleDelete(request), new FutureCallback<>() {
                    @Override
                    public void onSuccess(LifecycleDeleteResponse response) {
                        result.complete(response);
                    }

                    @Override
                    public void onFailure(Throwable error) {
                        result.completeExceptionally(error instanceof StatusRuntimeException e
                                ? new SeaweedCallException(operation(request), e)
                                : new SeaweedCallException(operation(request), Status.fromThrowable(error).asRuntimeException()));
                    }
                }, MoreExecutors.directExecutor());
        return result;
    }

    /**
     * A {@code LifecycleDelete} that names no bucket and no object: a gateway that serves the RPC refuses it (BLOCKED)
     * before it reads anything, so it can delete nothing; one that does not fails it UNIMPLEMENTED. See
     * {@link SeaweedCheck}.
     */
    public CompletableFuture<LifecycleDeleteResponse> probeAsync() {
        return deleteAsync(LifecycleDeleteRequest.getDefaultInstance());
    }

    private static String operation(LifecycleDeleteRequest request) {
        return "LifecycleDelete " + request.getBucket() + "/" + request.getObjectPath();
    }

    public LifecycleDeleteResponse delete(LifecycleDeleteRequest request) {
        try {
            return SeaweedS3LifecycleInternalGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .lifecycleDelete(request);
        } catch (StatusRuntimeException e) {
            throw new SeaweedCallException(operation(request), e);
        }
    }
}
