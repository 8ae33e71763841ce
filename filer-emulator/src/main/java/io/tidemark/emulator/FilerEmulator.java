package io.tidemark.emulator;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.tidemark.emulator.admin.AdminHttpServer;
import io.tidemark.emulator.filer.FilerException;
import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerService;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.emulator.s3.LifecycleActionListener;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.emulator.s3.S3LifecycleService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local SeaweedFS stand-in: the filer's gRPC service on one port and the S3 gateway's lifecycle gRPC service
 * on another, over one namespace laid out as the S3 gateway lays it out. Start it, use it, close it; close is
 * idempotent.
 */
public final class FilerEmulator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FilerEmulator.class);

    private enum State { NEW, STARTED, CLOSED }

    private final EmulatorSettings settings;
    private final Clock clock;
    private final FaultInjector faults = new FaultInjector();
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    private FilerStore store;
    private FilerService filerService;
    private S3Gateway gateway;
    private LifecycleDeleteHandler lifecycleDeletes;
    private Server filerServer;
    private Server s3Server;
    private AdminHttpServer admin;

    public FilerEmulator(EmulatorSettings settings, Clock clock) {
        this.settings = settings;
        this.clock = clock;
    }

    public FilerEmulator start() {
        if (!state.compareAndSet(State.NEW, State.STARTED)) {
            throw new IllegalStateException("the emulator can be started only once");
        }
        long began = System.nanoTime();
        try {
            store = settings.dataDir() == null
                    ? FilerStore.inMemory(clock, ThreadLocalRandom.current().nextInt())
                    : FilerStore.durable(settings.dataDir(), clock, signature(settings.dataDir()), settings.fsync());
            ensureBucketsDirectory();
            gateway = new S3Gateway(store, settings.bucketsDirectory());
            lifecycleDeletes = new LifecycleDeleteHandler(gateway, faults);
            filerService = new FilerService(store, settings.bucketsDirectory(), settings.heartbeatInterval());
            filerServer = NettyServerBuilder.forAddress(new InetSocketAddress(settings.bindHost(), settings.filerPort()),
                            ServerTls.credentials(settings.tls()))
                    .addService(ServerInterceptors.intercept(filerService, faults))
                    .maxInboundMessageSize(64 << 20)
                    .build().start();
            s3Server = NettyServerBuilder.forAddress(new InetSocketAddress(settings.bindHost(), settings.s3GrpcPort()),
                            ServerTls.credentials(settings.tls()))
                    .addService(ServerInterceptors.intercept(new S3LifecycleService(lifecycleDeletes), faults))
                    .build().start();
            if (settings.adminPort() >= 0) {
                admin = AdminHttpServer.start(settings.bindHost(), settings.adminPort(), gateway, faults, filerService);
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot start the filer emulator: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        log.info("filer emulator up in {} ms: filer gRPC {}, S3 gRPC {}, admin {}, data {}",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began), filerAddress(), s3GrpcAddress(),
                admin == null ? "off" : adminAddress(), settings.dataDir() == null ? "in memory" : settings.dataDir());
        return this;
    }

    private void ensureBucketsDirectory() {
        String dir = FilerPaths.normalize(settings.bucketsDirectory());
        if (store.lookup(dir).isEmpty()) {
            try {
                store.create(FilerPaths.parent(dir), FilerStore.newDirectory(FilerPaths.name(dir), clock.instant()), false);
            } catch (FilerException e) {
                throw new IllegalStateException("cannot create the buckets directory " + dir + ": " + e.getMessage(), e);
            }
        }
    }

    /** The filer signature survives restarts, as the filer's own id does. */
    private static int signature(Path dataDir) {
        Path file = dataDir.resolve("signature");
        try {
            Files.createDirectories(dataDir);
            if (Files.exists(file)) {
                return Integer.parseInt(Files.readString(file).trim());
            }
            int signature = ThreadLocalRandom.current().nextInt();
            Files.writeString(file, String.valueOf(signature));
            return signature;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or write " + file, e);
        }
    }

    public String filerAddress() {
        return settings.bindHost() + ":" + filerServer.getPort();
    }

    public String s3GrpcAddress() {
        return settings.bindHost() + ":" + s3Server.getPort();
    }

    public String adminAddress() {
        return admin == null ? null : settings.bindHost() + ":" + admin.port();
    }

    public S3Gateway s3() {
        return gateway;
    }

    public FilerStore store() {
        return store;
    }

    /**
     * Tells {@code listener} of every {@code LifecycleDelete} the gateway answers itself from now on, while it still
     * holds the store (see {@link LifecycleActionListener}), until the result is closed.
     */
    public AutoCloseable addLifecycleListener(LifecycleActionListener listener) {
        return lifecycleDeletes.addListener(listener);
    }

    public FaultInjector faults() {
        return faults;
    }

    /** Breaks every open meta-log subscription with UNAVAILABLE, as a filer restart would. */
    public int dropSubscriptions() {
        return filerService.dropSubscriptions();
    }

    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        if (admin != null) {
            admin.close();
        }
        if (filerService != null) {
            filerService.close();
        }
        for (Server server : new Server[] {filerServer, s3Server}) {
            if (server != null) {
                server.shutdown();
                try {
                    if (!server.awaitTermination(5, TimeUnit.SECONDS)) {
                        server.shutdownNow();
                    }
                } catch (InterruptedException e) {
                    server.shutdownNow();
                    Thread.currentThread().interrupt();
                }
            }
        }
        if (store != null) {
            store.close();
        }
    }
}
