package io.tidemark.seaweed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import io.tidemark.seaweed.pb.MasterProto.ListClusterNodesRequest;
import io.tidemark.seaweed.pb.MasterProto.ListClusterNodesResponse;
import io.tidemark.seaweed.pb.SeaweedGrpc;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MasterClientTest {

    private final List<ListClusterNodesRequest> asked = new ArrayList<>();
    private Server server;
    private ManagedChannel channel;

    private MasterClient masterAnswering(SeaweedGrpc.SeaweedImplBase master) throws IOException {
        String name = InProcessServerBuilder.generateName();
        server = InProcessServerBuilder.forName(name).directExecutor().addService(master).build().start();
        channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        return new MasterClient(channel, Duration.ofSeconds(5));
    }

    @AfterEach
    void close() {
        channel.shutdownNow();
        server.shutdownNow();
    }

    @Test
    void shouldListTheFilersWithTheGrpcAddressEachRegistered() throws IOException {
        MasterClient master = masterAnswering(new SeaweedGrpc.SeaweedImplBase() {
            @Override
            public void listClusterNodes(ListClusterNodesRequest request,
                                         StreamObserver<ListClusterNodesResponse> response) {
                asked.add(request);
                response.onNext(ListClusterNodesResponse.newBuilder()
                        .addClusterNodes(ListClusterNodesResponse.ClusterNode.newBuilder().setAddress("f1:8888")
                                .setVersion("30GB 3.80").setCreatedAtNs(1_700_000_000_000_000_001L))
                        .addClusterNodes(ListClusterNodesResponse.ClusterNode.newBuilder()
                                .setAddress("f2:8889.28000"))
                        .build());
                response.onCompleted();
            }
        });

        List<ClusterNode> filers = master.listFilers();

        assertThat(asked).extracting(ListClusterNodesRequest::getClientType).containsExactly("filer");
        assertThat(filers).extracting(ClusterNode::grpcAddress)
                .containsExactly(new HostPort("f1", 18888), new HostPort("f2", 28000));
        assertThat(filers.get(0).version()).isEqualTo("30GB 3.80");
        assertThat(filers.get(0).createdAt()).isEqualTo(Instant.ofEpochSecond(1_700_000_000L, 1));
    }

    @Test
    void shouldReportAFailedCallAsTransientWhenTheMasterIsUnavailable() throws IOException {
        MasterClient master = masterAnswering(new SeaweedGrpc.SeaweedImplBase() {
            @Override
            public void listClusterNodes(ListClusterNodesRequest request,
                                         StreamObserver<ListClusterNodesResponse> response) {
                response.onError(Status.UNAVAILABLE.withDescription("not the leader").asRuntimeException());
            }
        });

        assertThatThrownBy(master::listFilers).isInstanceOfSatisfying(SeaweedCallException.class,
                e -> assertThat(e.kind()).isEqualTo(FailureKind.TRANSIENT));
    }
}
