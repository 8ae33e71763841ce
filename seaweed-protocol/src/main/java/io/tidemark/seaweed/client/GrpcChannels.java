package io.tidemark.seaweed.client;

import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.TlsChannelCredentials;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

/** Builds channels to SeaweedFS gRPC endpoints given as {@code host:port}. */
public final class GrpcChannels {

    private GrpcChannels() {
    }

    public static ManagedChannel open(String address, GrpcTls tls) {
        HostPort target = HostPort.parse(address);
        return Grpc.newChannelBuilderForAddress(target.host(), target.port(), credentials(tls))
                // SeaweedFS entries can be large (long chunk lists, big extended maps).
                .maxInboundMessageSize(64 << 20)
                .keepAliveTime(30, TimeUnit.SECONDS)
                .build();
    }

    static ChannelCredentials credentials(GrpcTls tls) {
        if (!tls.enabled()) {
            return InsecureChannelCredentials.create();
        }
        try {
            TlsChannelCredentials.Builder builder = TlsChannelCredentials.newBuilder();
            if (tls.trustedCertificates() != null) {
                builder.trustManager(tls.trustedCertificates().toFile());
            }
            if (tls.mutual()) {
                builder.keyManager(tls.clientCertificate().toFile(), tls.clientKey().toFile());
            }
            return builder.build();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read TLS material: " + e.getMessage(), e);
        }
    }

    /** Shuts a channel down, waiting a bounded time for calls in flight. */
    public static void close(ManagedChannel channel) {
        channel.shutdown();
        try {
            if (!channel.awaitTermination(5, TimeUnit.SECONDS)) {
                channel.shutdownNow();
            }
        } catch (InterruptedException e) {
            channel.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
