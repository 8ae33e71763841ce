package io.tidemark.seaweed.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerAddressTest {

    @Test
    void shouldPutTheGrpcPortTenThousandAboveTheHttpPortWhenTheAddressNamesNone() {
        ServerAddress filer = new ServerAddress("filer-1.example:8888");

        assertThat(filer.httpAddress()).isEqualTo(new HostPort("filer-1.example", 8888));
        assertThat(filer.grpcAddress()).isEqualTo(new HostPort("filer-1.example", 18888));
    }

    @Test
    void shouldTakeTheGrpcPortFromTheSuffixAfterTheDot() {
        ServerAddress filer = new ServerAddress("10.0.0.7:8888.19999");

        assertThat(filer.httpAddress()).isEqualTo(new HostPort("10.0.0.7", 8888));
        assertThat(filer.grpcAddress()).isEqualTo(new HostPort("10.0.0.7", 19999));
    }

    @Test
    void shouldKeepADottedHostnameApartFromTheGrpcPort() {
        assertThat(new ServerAddress("a.b.c:80").grpcAddress()).isEqualTo(new HostPort("a.b.c", 10080));
    }

    @Test
    void shouldReadABracketedIpv6Host() {
        assertThat(new ServerAddress("[::1]:8888.7000").grpcAddress()).isEqualTo(new HostPort("::1", 7000));
    }

    @Test
    void shouldWriteTheExplicitFormThatReadsBackToTheSamePorts() {
        ServerAddress written = ServerAddress.of(new HostPort("127.0.0.1", 40001), 40002);

        assertThat(written.text()).isEqualTo("127.0.0.1:40001.40002");
        assertThat(written.grpcAddress()).isEqualTo(new HostPort("127.0.0.1", 40002));
    }

    @Test
    void shouldRefuseAnAddressWithoutAUsablePort() {
        assertThatThrownBy(() -> new ServerAddress("filer")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ServerAddress("filer:http")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ServerAddress("filer:8888.")).isInstanceOf(IllegalArgumentException.class);
        // 60000 + 10000 is no port.
        assertThatThrownBy(() -> new ServerAddress("filer:60000")).isInstanceOf(IllegalArgumentException.class);
    }
}
