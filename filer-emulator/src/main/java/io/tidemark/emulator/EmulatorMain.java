package io.tidemark.emulator;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;

/**
 * Runs the emulator as a process until SIGTERM. The {@code tidemark emulator} command is the usual way in; this
 * plain entry point exists so that tests can start the emulator as a child process and kill it.
 *
 * <p>Arguments: {@code --filer-port P --s3-grpc-port Q [--admin-port A] [--data-dir D] [--bind H] [--fsync]
 * [--filers N] [--master-port M] [--tls-cert C --tls-key K [--tls-client-ca CA]]}.
 * Once serving it prints one line: {@code READY filer=host:port s3=host:port admin=host:port master=host:port
 * filers=host:port,host:port…} (filer= is the first filer; filers= all of them, in order).
 */
public final class EmulatorMain {

    private EmulatorMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        EmulatorSettings settings = parse(args);
        run(settings, line -> {
            System.out.println(line);
            System.out.flush();
        });
    }

    /** Starts the emulator, reports its addresses, and blocks until the JVM is asked to stop. */
    public static void run(EmulatorSettings settings, Consumer<String> report)
            throws InterruptedException {
        FilerEmulator emulator = new FilerEmulator(settings, Clock.systemUTC()).start();
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            emulator.close();
            stopped.countDown();
        }, "emulator-shutdown"));
        report.accept("READY filer=" + emulator.filerAddress() + " s3=" + emulator.s3GrpcAddress()
                + " admin=" + emulator.adminAddress() + " master=" + emulator.masterAddress()
                + " filers=" + String.join(",", emulator.filerAddresses()));
        stopped.await();
    }

    static EmulatorSettings parse(String[] args) {
        EmulatorSettings s = EmulatorSettings.ephemeral();
        int filer = 18888;
        int s3 = 18333;
        int admin = -2;
        Path dataDir = null;
        String bind = s.bindHost();
        boolean fsync = false;
        Path tlsCert = null;
        Path tlsKey = null;
        Path tlsClientCa = null;
        int filers = 1;
        int master = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--filer-port" -> filer = Integer.parseInt(args[++i]);
                case "--s3-grpc-port" -> s3 = Integer.parseInt(args[++i]);
                case "--admin-port" -> admin = Integer.parseInt(args[++i]);
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--bind" -> bind = args[++i];
                case "--fsync" -> fsync = true;
                case "--tls-cert" -> tlsCert = Path.of(args[++i]);
                case "--tls-key" -> tlsKey = Path.of(args[++i]);
                case "--tls-client-ca" -> tlsClientCa = Path.of(args[++i]);
                case "--filers" -> filers = Integer.parseInt(args[++i]);
                case "--master-port" -> master = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        return new EmulatorSettings(bind, filer, s3, admin == -2 ? defaultAdminPort(s3) : admin, dataDir,
                s.bucketsDirectory(), Duration.ofSeconds(5), fsync,
                tlsCert == null ? null : new ServerTls(tlsCert, tlsKey, tlsClientCa), filers, master);
    }

    /** Where SeaweedFS's S3 HTTP port would be: the gRPC port minus 10000 (0 when the gRPC port is picked). */
    public static int defaultAdminPort(int s3GrpcPort) {
        return s3GrpcPort > 10000 ? s3GrpcPort - 10000 : 0;
    }
}
