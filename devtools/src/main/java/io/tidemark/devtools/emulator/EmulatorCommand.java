package io.tidemark.devtools.emulator;

import io.tidemark.emulator.EmulatorMain;
import io.tidemark.cli.ExitCodes;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.ServerTls;
import io.tidemark.seaweed.S3Layout;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "emulator",
        mixinStandardHelpOptions = true,
        description = {"Runs a local SeaweedFS stand-in: the filer gRPC service and the S3 gateway's lifecycle gRPC "
                + "service, with the S3 gateway's object layout.",
            "Prints READY filer=host:port s3=host:port admin=host:port master=host:port filers=host:port,... once "
                + "serving (filer= is the first filer, filers= every one), then runs until SIGTERM."},
        subcommands = {AdminCommand.S3.class, AdminCommand.Faults.class, BenchCommand.class})
public final class EmulatorCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--filer-port", defaultValue = "18888", description = "Filer gRPC port (default ${DEFAULT-VALUE}).")
    private int filerPort;

    @Option(names = "--s3-grpc-port", defaultValue = "18333",
            description = "S3 gateway gRPC port (default ${DEFAULT-VALUE}).")
    private int s3GrpcPort;

    @Option(names = "--admin-port", description = "Admin HTTP port for S3 operations and fault knobs "
            + "(default: the S3 gRPC port minus 10000, as SeaweedFS's S3 HTTP port; -1 disables it).")
    private Integer adminPort;

    @Option(names = "--data-dir", description = "Persist the namespace and meta-log here (default: memory only).")
    private Path dataDir;

    @Option(names = "--bind", defaultValue = "127.0.0.1", description = "Address to listen on (default ${DEFAULT-VALUE}).")
    private String bind;

    @Option(names = "--fsync", description = "Force every meta-log write to disk (survives machine crashes too).")
    private boolean fsync;

    @Option(names = "--heartbeat", defaultValue = "PT5S",
            description = "Idle heartbeat interval of meta-log subscriptions (default ${DEFAULT-VALUE}).")
    private Duration heartbeat;

    @Option(names = "--filers", defaultValue = "1",
            description = "Filers sharing the namespace, each with its own meta-log, on --filer-port, --filer-port + 1, "
                    + "... (default ${DEFAULT-VALUE}: a single filer).")
    private int filers;

    @Option(names = "--master-port", defaultValue = "0",
            description = "Master gRPC port, where ListClusterNodes lists the filers that are up (default: a free one).")
    private int masterPort;

    @Option(names = "--tls-cert", description = "PEM certificate chain: serve both gRPC ports over TLS.")
    private Path tlsCert;

    @Option(names = "--tls-key", description = "PEM PKCS#8 private key for --tls-cert.")
    private Path tlsKey;

    @Option(names = "--tls-client-ca", description = "PEM CA: require client certificates signed by it (mutual TLS).")
    private Path tlsClientCa;

    @Override
    public Integer call() throws InterruptedException {
        if ((tlsCert == null) != (tlsKey == null)) {
            spec.commandLine().getErr().println("error: --tls-cert and --tls-key go together");
            return ExitCodes.USAGE;
        }
        if (filers < 1) {
            spec.commandLine().getErr().println("error: --filers is at least 1, not " + filers);
            return ExitCodes.USAGE;
        }
        EmulatorSettings settings = new EmulatorSettings(bind, filerPort, s3GrpcPort,
                adminPort == null ? EmulatorMain.defaultAdminPort(s3GrpcPort) : adminPort, dataDir,
                S3Layout.DEFAULT_BUCKETS_DIRECTORY, heartbeat, fsync,
                tlsCert == null ? null : new ServerTls(tlsCert, tlsKey, tlsClientCa), filers, masterPort);
        EmulatorMain.run(settings, line -> spec.commandLine().getOut().println(line));
        return 0;
    }
}
