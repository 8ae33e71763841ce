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
 * @param tls               TLS for every gRPC port, or {@code null} for plaintext
 * @param filers            how many filers share the store (1: a single filer, as SeaweedFS runs by default); filer
 *                          {@code i} listens on {@code filerPort + i}, or on a port of its own when filerPort is 0
 * @param masterPort        the master gRPC port, which lists the filers (SeaweedFS: 19333); 0 picks one
 */
public record EmulatorSettings(String bindHost, int filerPort, int s3GrpcPort, int adminPort, Path dataDir,
                               String bucketsDirectory, Duration heartbeatInterval, boolean fsync, ServerTls tls,
                               int filers, int masterPort) {

    public EmulatorSettings {
        if (filers < 1) {
            throw new IllegalArgumentException("the emulator runs at least one filer, not " + filers);
        }
    }

    /** A single filer, the master on a port of its own. */
    public EmulatorSettings(String bindHost, int filerPort, int s3GrpcPort, int adminPort, Path dataDir,
                            String bucketsDirectory, Duration heartbeatInterval, boolean fsync, ServerTls tls) {
        this(bindHost, filerPort, s3GrpcPort, adminPort, dataDir, bucketsDirectory, heartbeatInterval, fsync, tls, 1, 0);
    }

    public static EmulatorSettings ephemeral() {
        return new EmulatorSettings("127.0.0.1", 0, 0, 0, null, S3Layout.DEFAULT_BUCKETS_DIRECTORY,
                Duration.ofSeconds(5), false, null);
    }

    /** The port of filer {@code index}. */
    public int filerPort(int index) {
        return filerPort == 0 ? 0 : filerPort + index;
    }

    public EmulatorSettings withFilers(int count) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dataDir, bucketsDirectory,
                heartbeatInterval, fsync, tls, count, masterPort);
    }

    public EmulatorSettings withMasterPort(int port) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dataDir, bucketsDirectory,
                heartbeatInterval, fsync, tls, filers, port);
    }

    public EmulatorSettings withPorts(int filer, int s3Grpc, int admin) {
        return new EmulatorSettings(bindHost, filer, s3Grpc, admin, dataDir, bucketsDirectory, heartbeatInterval, fsync,
                tls, filers, masterPort);
    }

    public EmulatorSettings withDataDir(Path dir) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dir, bucketsDirectory, heartbeatInterval,
                fsync, tls, filers, masterPort);
    }

    public EmulatorSettings withHeartbeatInterval(Duration interval) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dataDir, bucketsDirectory, interval,
                fsync, tls, filers, masterPort);
    }

    public EmulatorSettings withTls(ServerTls serverTls) {
        return new EmulatorSettings(bindHost, filerPort, s3GrpcPort, adminPort, dataDir, bucketsDirectory,
                heartbeatInterval, fsync, serverTls, filers, masterPort);
    }
}
