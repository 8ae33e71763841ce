package io.tidemark.seaweed.client;

import io.grpc.Channel;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.pb.MasterProto.ListClusterNodesRequest;
import io.tidemark.seaweed.pb.MasterProto.ListClusterNodesResponse;
import io.tidemark.seaweed.pb.SeaweedGrpc;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The master operations Tidemark needs: which filers the cluster has. Every call carries the configured deadline. */
public final class MasterClient extends GrpcClient {

    /** The {@code client_type} the master files filers under ({@code cluster.FilerType}). */
    public static final String FILER = "filer";

    /** Uses a channel the caller owns and closes. */
    public MasterClient(Channel channel, Duration deadline) {
        this(channel, null, deadline);
    }

    private MasterClient(Channel channel, ManagedChannel owned, Duration deadline) {
        super(channel, owned, deadline);
    }

    /** Connects to the master's gRPC address ({@code host:port}; SeaweedFS's default is 19333). */
    public static MasterClient connect(String address, GrpcTls tls, Duration deadline) {
        ManagedChannel channel = GrpcChannels.open(address, tls);
        return new MasterClient(channel, channel, deadline);
    }

    /** Every node of that type registered with the master (of the default filer group), in the master's order. */
    public List<ClusterNode> listClusterNodes(String clientType) {
        try {
            ListClusterNodesResponse response = SeaweedGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(deadline.toMillis(), TimeUnit.MILLISECONDS)
                    .listClusterNodes(ListClusterNodesRequest.newBuilder().setClientType(clientType).build());
            return response.getClusterNodesList().stream()
                    .map(n -> new ClusterNode(new ServerAddress(n.getAddress()), n.getVersion(),
                            EpochNanos.toInstant(n.getCreatedAtNs())))
                    .toList();
        } catch (StatusRuntimeException e) {
            throw new SeaweedCallException("ListClusterNodes " + clientType, e);
        }
    }

    /** The filers registered with the master. */
    public List<ClusterNode> listFilers() {
        return listClusterNodes(FILER);
    }
}
