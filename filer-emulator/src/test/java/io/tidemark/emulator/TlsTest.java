package io.tidemark.emulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.S3LifecycleProto;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TlsTest {

    @TempDir
    static Path dir;

    static TestCertificates certs;
    static FilerEmulator mutual;
    static FilerEmulator serverOnly;

    @BeforeAll
    static void start() throws Exception {
        certs = TestCertificates.create(dir);
        mutual = new FilerEmulator(EmulatorSettings.ephemeral().withTls(new ServerTls(certs.serverCert, certs.serverKey,
                certs.ca)), Clock.systemUTC()).start();
        serverOnly = new FilerEmulator(EmulatorSettings.ephemeral().withTls(new ServerTls(certs.serverCert,
                certs.serverKey, null)), Clock.systemUTC()).start();
    }

    @AfterAll
    static void stop() {
        mutual.close();
        serverOnly.close();
    }

    private static String localhost(String address) {
        return "localhost:" + address.substring(address.lastIndexOf(':') + 1);
    }

    @Test
    void shouldTalkMutualTlsWithAClientCertificate() {
        GrpcTls tls = new GrpcTls(true, certs.ca, certs.clientCert, certs.clientKey);
        try (FilerClient filer = FilerClient.connect(localhost(mutual.filerAddress()), tls, Duration.ofSeconds(10));
             LifecycleDeleteClient lifecycle = LifecycleDeleteClient.connect(localhost(mutual.s3GrpcAddress()), tls,
                     Duration.ofSeconds(10))) {
            assertThat(filer.bucketsDirectory()).isEqualTo("/buckets");
            assertThat(lifecycle.delete(S3LifecycleProto.LifecycleDeleteRequest.getDefaultInstance()).getOutcome())
                    .isEqualTo(S3LifecycleProto.LifecycleDeleteOutcome.BLOCKED);
        }
    }

    @Test
    void shouldBeRefusedWithoutAClientCertificateWhereOneIsRequired() {
        try (FilerClient filer = FilerClient.connect(localhost(mutual.filerAddress()),
                new GrpcTls(true, certs.ca, null, null), Duration.ofSeconds(10))) {
            assertThatThrownBy(filer::bucketsDirectory).isInstanceOf(SeaweedCallException.class);
        }
    }

    @Test
    void shouldTalkServerSideTlsAndRefusePlaintext() {
        try (FilerClient filer = FilerClient.connect(localhost(serverOnly.filerAddress()),
                new GrpcTls(true, certs.ca, null, null), Duration.ofSeconds(10))) {
            assertThat(filer.bucketsDirectory()).isEqualTo("/buckets");
        }
        try (FilerClient plaintext = FilerClient.connect(localhost(serverOnly.filerAddress()), GrpcTls.PLAINTEXT,
                Duration.ofSeconds(3))) {
            assertThatThrownBy(plaintext::bucketsDirectory).isInstanceOf(SeaweedCallException.class);
        }
    }

    @Test
    void shouldRefuseAServerItDoesNotTrust(@TempDir Path otherDir) throws Exception {
        TestCertificates foreign = TestCertificates.create(otherDir);
        try (FilerClient untrusting = FilerClient.connect(localhost(serverOnly.filerAddress()),
                new GrpcTls(true, foreign.ca, null, null), Duration.ofSeconds(10))) {
            assertThatThrownBy(untrusting::bucketsDirectory).isInstanceOf(SeaweedCallException.class);
        }
    }
}
