package io.tidemark.emulator.s3;

import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;

/**
 * Told of every {@code LifecycleDelete} the gateway answered itself (a forced answer is not an action), while the
 * gateway still holds the store: what the listener reads of the bucket is the state the action left, before any other
 * write. For checkers that keep a history of what lifecycle did, as an audit log of the gateway would.
 */
@FunctionalInterface
public interface LifecycleActionListener {

    void answered(LifecycleDeleteRequest request, LifecycleDeleteResponse response);
}
