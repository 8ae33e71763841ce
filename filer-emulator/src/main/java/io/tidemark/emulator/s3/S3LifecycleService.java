package io.tidemark.emulator.s3;

import io.grpc.stub.StreamObserver;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import io.tidemark.seaweed.pb.SeaweedS3LifecycleInternalGrpc;

/** {@code s3_lifecycle_pb.SeaweedS3LifecycleInternal} on the emulated S3 gateway's gRPC port. */
public final class S3LifecycleService extends SeaweedS3LifecycleInternalGrpc.SeaweedS3LifecycleInternalImplBase {

    private final LifecycleDeleteHandler handler;

    public S3LifecycleService(LifecycleDeleteHandler handler) {
        this.handler = handler;
    }

    @Override
    public void lifecycleDelete(LifecycleDeleteRequest request, StreamObserver<LifecycleDeleteResponse> response) {
        response.onNext(handler.handle(request));
        response.onCompleted();
    }
}
