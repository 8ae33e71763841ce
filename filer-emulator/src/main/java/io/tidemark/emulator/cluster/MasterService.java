package io.tidemark.emulator.cluster;

import io.grpc.stub.StreamObserver;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.client.HostPort;
import io.tidemark.seaweed.client.MasterClient;
import io.tidemark.seaweed.client.ServerAddress;
import io.tidemark.seaweed.pb.MasterProto.ListClusterNodesRequest;
import io.tidemark.seaweed.pb.MasterProto.ListClusterNodesResponse;
import io.tidemark.seaweed.pb.SeaweedGrpc;
import java.util.List;
import java.util.function.Supplier;

/**
 * The master's {@code ListClusterNodes}, as a master answers it for filers that registered: the filers up now, each
 * at {@code host:httpPort.grpcPort}. The emulator has no filer HTTP port; the HTTP part is the gRPC port less 10000
 * where there is room (SeaweedFS's pairing), else the gRPC port itself, and the explicit gRPC port is what counts.
 */
final class MasterService extends SeaweedGrpc.SeaweedImplBase {

    private static final String VERSION = "tidemark-filer-emulator";

    private final Supplier<List<FilerServer>> filers;

    MasterService(Supplier<List<FilerServer>> filers) {
        this.filers = filers;
    }

    @Override
    public void listClusterNodes(ListClusterNodesRequest request, StreamObserver<ListClusterNodesResponse> response) {
        ListClusterNodesResponse.Builder answer = ListClusterNodesResponse.newBuilder();
        if (request.getClientType().equals(MasterClient.FILER)) {
            for (FilerServer filer : filers.get()) {
                if (filer.running()) {
                    answer.addClusterNodes(ListClusterNodesResponse.ClusterNode.newBuilder()
                            .setAddress(serverAddress(filer).text())
                            .setVersion(VERSION)
                            .setCreatedAtNs(EpochNanos.of(filer.joined())));
                }
            }
        }
        response.onNext(answer.build());
        response.onCompleted();
    }

    static ServerAddress serverAddress(FilerServer filer) {
        int grpc = filer.port();
        int http = grpc > ServerAddress.GRPC_PORT_OFFSET ? grpc - ServerAddress.GRPC_PORT_OFFSET : grpc;
        return ServerAddress.of(new HostPort(HostPort.parse(filer.address()).host(), http), grpc);
    }
}
