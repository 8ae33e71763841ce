package io.tidemark.emulator.cluster;

import io.grpc.ServerCredentials;
import io.grpc.ServerInterceptor;
import java.time.Duration;

/**
 * What every filer's and the master's gRPC server share.
 *
 * @param bindHost          the address each binds to
 * @param credentials       plaintext or TLS
 * @param faults            the fault knobs, applied to every filer's calls
 * @param bucketsDirectory  what {@code GetFilerConfiguration} names as {@code dir_buckets}
 * @param heartbeatInterval how long an idle subscription waits before a heartbeat
 */
public record ServerSetup(String bindHost, ServerCredentials credentials, ServerInterceptor faults,
                          String bucketsDirectory, Duration heartbeatInterval) {
}
