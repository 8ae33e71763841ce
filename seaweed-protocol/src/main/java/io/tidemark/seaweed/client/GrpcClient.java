package io.tidemark.seaweed.client;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import java.time.Duration;

/**
 * What every SeaweedFS client shares: a channel that it either owns (opened from an address, closed with the
 * client) or borrows (the caller closes it), and the deadline of each unary call.
 */
abstract class GrpcClient implements AutoCloseable {

    protected final Channel channel;
    protected final Duration deadline;
    private final ManagedChannel owned;

    protected GrpcClient(Channel channel, ManagedChannel owned, Duration deadline) {
        this.channel = channel;
        this.owned = owned;
        this.deadline = deadline;
    }

    @Override
    public void close() {
        if (owned != null) {
            GrpcChannels.close(owned);
        }
    }
}
