package io.tidemark.seaweed.client;

import java.nio.file.Path;

/**
 * Transport security for a gRPC connection. Plaintext unless enabled; with a client certificate and key it is
 * mutual TLS.
 *
 * @param trustedCertificates PEM file of the CAs to trust, or {@code null} for the JDK's defaults
 * @param clientCertificate   PEM client certificate chain for mutual TLS, or {@code null}
 * @param clientKey           PEM PKCS#8 private key matching the client certificate, or {@code null}
 */
public record GrpcTls(boolean enabled, Path trustedCertificates, Path clientCertificate, Path clientKey) {

    public static final GrpcTls PLAINTEXT = new GrpcTls(false, null, null, null);

    public GrpcTls {
        if ((clientCertificate == null) != (clientKey == null)) {
            throw new IllegalArgumentException("mutual TLS needs both a client certificate and its key");
        }
    }

    public boolean mutual() {
        return enabled && clientCertificate != null;
    }
}
