package io.tidemark.seaweed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.BindableService;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import io.tidemark.seaweed.pb.FilerProto.GetFilerConfigurationRequest;
import io.tidemark.seaweed.pb.FilerProto.GetFilerConfigurationResponse;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import io.tidemark.seaweed.pb.SeaweedS3LifecycleInternalGrpc;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SeaweedCheckTest {

    private final List<LifecycleDeleteRequest> asked = new ArrayList<>();
    private final List<Server> servers = new ArrayList<>();
    private final List<ManagedChannel> channels = new ArrayList<>();

    /** A channel to an in-process server offering {@code services} only: any other is UNIMPLEMENTED, as upstream. */
    private ManagedChannel serving(BindableService... services) throws IOException {
        String name = InProcessServerBuilder.generateName();
        InProcessServerBuilder builder = InProcessServerBuilder.forName(name).directExecutor();
        for (BindableService service : services) {
            builder.addService(service);
        }
        servers.add(builder.build().start());
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        channels.add(channel);
        return channel;
    }

    /** A gateway answering every LifecycleDelete as SeaweedFS 4.24 and later answer one with no bucket or path. */
    private SeaweedS3LifecycleInternalGrpc.SeaweedS3LifecycleInternalImplBase gateway() {
        return new SeaweedS3LifecycleInternalGrpc.SeaweedS3LifecycleInternalImplBase() {
            @Override
            public void lifecycleDelete(LifecycleDeleteRequest request,
                                        StreamObserver<LifecycleDeleteResponse> response) {
                asked.add(request);
                response.onNext(LifecycleDeleteResponse.newBuilder().setOutcome(LifecycleDeleteOutcome.BLOCKED)
                        .setReason("FATAL_EVENT_ERROR: empty bucket or object_path").build());
                response.onCompleted();
            }
        };
    }

    private static SeaweedFilerGrpc.SeaweedFilerImplBase filer(GetFilerConfigurationResponse configuration) {
        return new SeaweedFilerGrpc.SeaweedFilerImplBase() {
            @Override
            public void getFilerConfiguration(GetFilerConfigurationRequest request,
                                              StreamObserver<GetFilerConfigurationResponse> response) {
                response.onNext(configuration);
                response.onCompleted();
            }
        };
    }

    @AfterEach
    void close() {
        channels.forEach(ManagedChannel::shutdownNow);
        servers.forEach(Server::shutdownNow);
    }

    @Test
    void shouldProbeTheGatewayWithARequestItRefusesBeforeReadingAnything() throws Exception {
        LifecycleDeleteClient client = new LifecycleDeleteClient(serving(gateway()), Duration.ofSeconds(5));

        SeaweedCheck.Gateway check = SeaweedCheck.gateway(client, "s3:18333").get();

        assertThat(check.state()).isEqualTo(SeaweedCheck.Gateway.State.SERVED);
        assertThat(check.describe()).isEqualTo("the S3 gateway at s3:18333 serves LifecycleDelete");
        // No bucket and no object path: every release that serves LifecycleDelete answers BLOCKED before any read.
        assertThat(asked).singleElement().satisfies(request -> {
            assertThat(request.getBucket()).isEmpty();
            assertThat(request.getObjectPath()).isEmpty();
            assertThat(request.getVersionId()).isEmpty();
            assertThat(request.hasExpectedIdentity()).isFalse();
        });
    }

    @Test
    void shouldFindThatAGatewayWithoutLifecycleDeleteCannotServeAndNameTheReleaseNeeded() throws Exception {
        // A server with no SeaweedS3LifecycleInternal at all: how a gateway older than 4.24 (or another port) answers.
        LifecycleDeleteClient client = new LifecycleDeleteClient(serving(filer(
                GetFilerConfigurationResponse.getDefaultInstance())), Duration.ofSeconds(5));

        SeaweedCheck.Gateway check = SeaweedCheck.gateway(client, "s3:18333").get();

        assertThat(check.state()).isEqualTo(SeaweedCheck.Gateway.State.UNIMPLEMENTED);
        assertThat(check.describe()).startsWith("the S3 gateway at s3:18333 does not serve LifecycleDelete "
                        + "(UNIMPLEMENTED")
                .contains("SeaweedFS " + SeaweedCheck.LIFECYCLE_DELETE_RELEASE + " or newer")
                .contains("s3.grpc.address")
                .doesNotContain("\n");
        assertThat(SeaweedCheck.LIFECYCLE_DELETE_RELEASE).isEqualTo("4.24");
    }

    @Test
    void shouldTellAGatewayThatDoesNotAnswerFromOneThatCannotServe() throws Exception {
        ManagedChannel channel = serving(gateway());
        servers.get(0).shutdownNow().awaitTermination();
        LifecycleDeleteClient client = new LifecycleDeleteClient(channel, Duration.ofSeconds(5));

        SeaweedCheck.Gateway check = SeaweedCheck.gateway(client, "s3:18333").get();

        assertThat(check.state()).isEqualTo(SeaweedCheck.Gateway.State.UNANSWERED);
        assertThat(check.describe()).startsWith("the S3 gateway at s3:18333 does not answer: UNAVAILABLE");
    }

    @Test
    void shouldReadTheFilersRelease() throws Exception {
        FilerClient client = new FilerClient(serving(filer(GetFilerConfigurationResponse.newBuilder()
                .setVersion("30GB 4.44 1a2b3c").setMajorVersion(4).setMinorVersion(44).build())),
                Duration.ofSeconds(5));

        SeaweedCheck.Filer check = SeaweedCheck.filer(client, "filer:18888").get();

        assertThat(check.answered()).isTrue();
        assertThat(check.release()).isEqualTo("4.44");
        assertThat(check.version()).isEqualTo("30GB 4.44 1a2b3c");
        assertThat(check.describe()).isEqualTo("the filer at filer:18888 answers: SeaweedFS 4.44 (version "
                + "\"30GB 4.44 1a2b3c\")");
    }

    @Test
    void shouldSayWhenTheFilersReleaseIsOlderThanTheFirstWithLifecycleDelete() throws Exception {
        FilerClient old = new FilerClient(serving(filer(GetFilerConfigurationResponse.newBuilder()
                .setVersion("30GB 4.05 ").setMajorVersion(4).setMinorVersion(5).build())), Duration.ofSeconds(5));
        FilerClient unnumbered = new FilerClient(serving(filer(GetFilerConfigurationResponse.newBuilder()
                .setVersion("tidemark-filer-emulator").build())), Duration.ofSeconds(5));

        assertThat(SeaweedCheck.filer(old, "filer:18888").get().describe()).isEqualTo("the filer at filer:18888 "
                + "answers: SeaweedFS 4.05 (version \"30GB 4.05\"), older than 4.24, the first release whose S3 "
                + "gateway serves LifecycleDelete");
        SeaweedCheck.Filer emulator = SeaweedCheck.filer(unnumbered, "filer:18888").get();
        assertThat(emulator.release()).isNull();
        assertThat(emulator.describe()).isEqualTo("the filer at filer:18888 answers: version "
                + "\"tidemark-filer-emulator\"");
    }

    @Test
    void shouldSayWhenTheFilerDoesNotAnswer() throws Exception {
        ManagedChannel channel = serving(filer(GetFilerConfigurationResponse.getDefaultInstance()));
        servers.get(0).shutdownNow().awaitTermination();

        SeaweedCheck.Filer check = SeaweedCheck.filer(new FilerClient(channel, Duration.ofSeconds(5)),
                "filer:18888").get();

        assertThat(check.answered()).isFalse();
        assertThat(check.describe()).startsWith("the filer at filer:18888 does not answer: UNAVAILABLE");
    }
}
