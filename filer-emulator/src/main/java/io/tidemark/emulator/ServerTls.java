package io.tidemark.emulator;

import io.grpc.InsecureServerCredentials;
import io.grpc.ServerCredentials;
import io.grpc.TlsServerCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * TLS for the emulator's gRPC ports, as a SeaweedFS deployment with {@code security.toml} would serve them.
 *
 * @param certificateChain PEM certificate chain of the server
 * @param privateKey       PEM PKCS#8 private key of the server
 * @param clientCa         PEM CA that client certificates must chain to; {@code null}: no client certificate asked
 */
public record ServerTls(Path certificateChain, Path privateKey, Path clientCa) {

    static ServerCredentials credentials(ServerTls tls) {
        if (tls == null) {
            return InsecureServerCredentials.create();
        }
        try {
            TlsServerCredentials.Builder builder = TlsServerCredentials.newBuilder()
                    .keyManager(tls.certificateChain().toFile(), tls.privateKey().toFile());
            if (tls.clientCa() != null) {
                builder.trustManager(tls.clientCa().toFile()).clientAuth(TlsServerCredentials.ClientAuth.REQUIRE);
            }
            return builder.build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the emulator's TLS material: " + e.getMessage(), e);
        }
    }
}
