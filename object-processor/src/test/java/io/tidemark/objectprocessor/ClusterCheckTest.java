package io.tidemark.objectprocessor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.Status;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.client.SeaweedCheck;
import io.tidemark.service.ServiceState;
import io.tidemark.zookeeper.Controls;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 44: a gateway older than the first release with {@code LifecycleDelete} answered UNIMPLEMENTED to every task,
 * and each was parked while the processor reported ready. The processor now asks the gateway and the filer before it
 * serves, and again while it runs; no Kafka and no ZooKeeper here.
 */
class ClusterCheckTest {

    private FilerEmulator emulator;
    private LifecycleDeleteClient gateway;
    private FilerClient filer;

    @BeforeEach
    void start() {
        emulator = new FilerEmulator(EmulatorSettings.ephemeral(), Clock.systemUTC()).start();
        gateway = LifecycleDeleteClient.connect(emulator.s3GrpcAddress(), GrpcTls.PLAINTEXT, Duration.ofSeconds(5));
        filer = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT, Duration.ofSeconds(5));
    }

    @AfterEach
    void stop() {
        gateway.close();
        filer.close();
        emulator.close();
    }

    private ClusterCheck check() {
        return new ClusterCheck(gateway, emulator.s3GrpcAddress(), filer, emulator.filerAddress(),
                Duration.ofMinutes(10));
    }

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void shouldRefuseToStartWhenGatewayLacksLifecycleDelete() throws Exception {
        emulator.faults().fail("LifecycleDelete", Status.Code.UNIMPLEMENTED, -1);
        int nobody = closedPort();
        // Neither Kafka nor ZooKeeper answers here: the gateway is asked before either is.
        ObjectProcessorService service = new ObjectProcessorService(new TidemarkConfig(Map.of(
                "kafka.bootstrap.servers", "127.0.0.1:" + nobody, "zookeeper.connect", "127.0.0.1:" + nobody,
                "zookeeper.connection.timeout.ms", "1000", "zookeeper.session.timeout.ms", "2000",
                "s3.grpc.address", emulator.s3GrpcAddress(), "filer.address", emulator.filerAddress())),
                Clock.systemUTC(), new SimpleMeterRegistry());
        try {
            assertThatThrownBy(service::start)
                    .hasMessageContaining("the S3 gateway at " + emulator.s3GrpcAddress()
                            + " does not serve LifecycleDelete (UNIMPLEMENTED")
                    .hasMessageContaining("Tidemark needs SeaweedFS " + SeaweedCheck.LIFECYCLE_DELETE_RELEASE
                            + " or newer")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            assertThat(service.state()).isEqualTo(ServiceState.FAILED);
            assertThat(service.ready()).isFalse();
        } finally {
            service.close();
        }
    }

    @Test
    void shouldStartOnAGatewayThatDoesNotAnswerYetButNotBeReadyUntilItDoes() throws Exception {
        emulator.faults().fail("LifecycleDelete", Status.Code.UNAVAILABLE, -1);
        ClusterCheck check = check();

        check.atStart();   // not refused: it may serve LifecycleDelete once it answers

        assertThat(check.ready()).isFalse();
        assertThat(check.gateway().state()).isEqualTo(SeaweedCheck.Gateway.State.UNANSWERED);
        assertThat(check.gatewayLacksLifecycleDelete()).as("tasks go on, retried until answered").isFalse();
        emulator.faults().clearFailures();
        check.check().get();
        assertThat(check.ready()).isTrue();
        assertThat(check.gateway().state()).isEqualTo(SeaweedCheck.Gateway.State.SERVED);
    }

    @Test
    void shouldNotBeReadyWhileTheGatewayOrTheFilerDoesNotAnswer() throws Exception {
        ClusterCheck check = check();
        check.atStart();
        assertThat(check.ready()).isTrue();
        assertThat(check.filer().describe()).isEqualTo("the filer at " + emulator.filerAddress()
                + " answers: version \"tidemark-filer-emulator\"");

        emulator.faults().fail("LifecycleDelete", Status.Code.UNAVAILABLE, -1);
        check.check().get();
        assertThat(check.ready()).isFalse();
        emulator.faults().clearFailures();
        check.check().get();
        assertThat(check.ready()).isTrue();

        emulator.faults().fail("GetFilerConfiguration", Status.Code.UNAVAILABLE, -1);
        check.check().get();
        assertThat(check.ready()).isFalse();
        assertThat(check.filer().describe()).startsWith("the filer at " + emulator.filerAddress()
                + " does not answer: UNAVAILABLE");
        emulator.faults().clearFailures();
        check.check().get();
        assertThat(check.ready()).isTrue();
    }

    @Test
    void shouldHoldEveryTaskWhileTheGatewayLacksLifecycleDeleteAndLetThemGoWhenItServes() throws Exception {
        ClusterCheck check = check();
        check.atStart();
        BucketControls controls = new BucketControls(() -> Optional.of(Controls.NONE), () -> 0, check);
        assertThat(controls.gate("b")).isEqualTo(BucketControls.Gate.RUN);
        long before = controls.changes();

        // Found by a task's own call, not only by the check: that call's task is held, not parked.
        check.observed(null, Status.UNIMPLEMENTED.withDescription("unknown service").asRuntimeException());
        assertThat(check.ready()).isFalse();
        assertThat(controls.gate("b")).isEqualTo(BucketControls.Gate.HOLD);
        assertThat(controls.holdReason()).startsWith("the S3 gateway at " + emulator.s3GrpcAddress()
                + " does not serve LifecycleDelete");
        assertThat(controls.changes()).isNotEqualTo(before);

        long held = controls.changes();
        check.check().get();   // the emulator serves it: held tasks go again
        assertThat(controls.gate("b")).isEqualTo(BucketControls.Gate.RUN);
        assertThat(controls.changes()).as("held tasks are looked at again").isNotEqualTo(held);
        assertThat(check.ready()).isTrue();
    }

    @Test
    void shouldTakeATasksAnsweredCallAsProofAndNotProbeAgainMeanwhile() throws Exception {
        ClusterCheck check = check();
        check.atStart();
        check.observed(io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse.getDefaultInstance(), null);
        emulator.faults().fail("LifecycleDelete", Status.Code.UNAVAILABLE, 1);

        check.check().get();

        assertThat(emulator.faults().failuresLeft("LifecycleDelete")).as("no probe").isEqualTo(1);
        assertThat(check.ready()).isTrue();
    }
}
