package io.tidemark.emulator;

import io.tidemark.seaweed.S3Layout;
import java.nio.file.Path;
import java.time.Duration;

/**
 * How to run the emulator.
 *
 * @param bindHost          the address every port binds to (loopback by default)
 * @param filerPort         the filer gRPC port (SeaweedFS: filer HTTP port + 10000, e.g. 18888); 0 picks one
 * @param s3GrpcPort        the S3 gateway gRPC port (SeaweedFS: S3 port + 10000, e.g. 18333); 0 picks one
 * @param adminPort         the admin HTTP port for S3 operations and fault knobs; 0 picks one, -1 disables it
 * @param dataDir           where the namespace and meta-log persist, or {@code null} for memory only
 * @param heartbeatInterval how long an idle subscription waits before a heartbeat
 * @param fsync             force every meta-log append to disk (survives a machine crash, not only a kill)
 * @param tls               TLS for both gRPC ports, or {@code null} for plaintext
 */
public record EmulatorSettings(String bindHost, int filerPort, int s3GrpcPort, int adminPort, Path dataDir,
                               String bucketsDirectory, Duration heartbeatInterval, boolean fsync, ServerTls tls) {

    public static EmulatorSettings ephemeral() {
        return new EmulatorSettings("127.0.0.1", 0, 0, 0, null, S3Layout.DEFAULT_BUCKETS_DIRECTORY,
                Duration.ofSeconds(5), false, null);
    }

    public EmulatorSettings withPorts(int filer, int s3Grpc, int admin) {
        return new EmulatorSettings(bindHost, filer, s3Grpc, admin, dataDir, bucketsDirectory, heartbeatInterval, fsync,
                tls);
    }

    public EmulatorSettings withDataDir(Path dir) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dir, bucketsDirectory, heartbeatInterval,
                fsync, tls);
    }

    public EmulatorSettings withHeartbeatInterval(Duration interval) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dataDir, bucketsDirectory, interval,
                fsync, tls);
    }

    public EmulatorSettings withTls(ServerTls serverTls) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dataDir, bucketsDirectory,
                heartbeatInterval, fsync, serverTls);
    }
}
