package io.tidemark.seaweed.client;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import io.tidemark.seaweed.pb.SeaweedS3LifecycleInternalGrpc;
import java.time.Duration;
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

    public LifecycleDeleteResponse delete(LifecycleDeleteRequest request) {
        try {
            return SeaweedS3LifecycleInternalGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .lifecycleDelete(request);
        } catch (StatusRuntimeException e) {
            throw new SeaweedCallException("LifecycleDelete " + request.getBucket() + "/" + request.getObjectPath(), e);
        }
    }
}
