package io.tidemark.emulator;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.tidemark.emulator.admin.AdminHttpServer;
import io.tidemark.emulator.cluster.FilerCluster;
import io.tidemark.emulator.cluster.Servers;
import io.tidemark.emulator.cluster.ServerSetup;
import io.tidemark.emulator.filer.FilerException;
import io.tidemark.emulator.filer.FilerNode;
import io.tidemark.emulator.filer.FilerPaths;
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
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local SeaweedFS stand-in: the filer's gRPC service on one port and the S3 gateway's lifecycle gRPC service
 * on another, over one namespace laid out as the S3 gateway lays it out. Start it, use it, close it; close is
 * idempotent.
 *
 * <p>It can run several filers sharing the namespace ({@link EmulatorSettings#withFilers}), each on its own port with
 * its own meta-log, and a master that lists them ({@link #masterAddress}); see {@link FilerCluster} and
 * docs/filer-emulator.md. With one filer, the default, it is the single filer it always was.
 */
public final class FilerEmulator implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FilerEmulator.class);

    private enum State { NEW, STARTED, CLOSED }

    private final EmulatorSettings settings;
    private final Clock clock;
    private final FaultInjector faults = new FaultInjector();
    private final AtomicReference<State> state = new AtomicReference<>(State.NEW);
    private FilerStore store;
    private FilerCluster cluster;
    private S3Gateway gateway;
    private LifecycleDeleteHandler lifecycleDeletes;
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
            List<Integer> signatures = IntStream.range(0, settings.filers()).map(this::signature).boxed().toList();
            store = settings.dataDir() == null
                    ? FilerStore.inMemory(clock, signatures)
                    : FilerStore.durable(settings.dataDir(), clock, signatures, settings.fsync());
            ensureBucketsDirectory();
            gateway = new S3Gateway(store, settings.bucketsDirectory());
            lifecycleDeletes = new LifecycleDeleteHandler(gateway, faults);
            cluster = FilerCluster.start(store, new ServerSetup(settings.bindHost(), ServerTls.credentials(settings.tls()),
                            faults, settings.bucketsDirectory(), settings.heartbeatInterval()), this::signature,
                    IntStream.range(0, settings.filers()).map(settings::filerPort).boxed().toList(), settings.masterPort());
            s3Server = NettyServerBuilder.forAddress(new InetSocketAddress(settings.bindHost(), settings.s3GrpcPort()),
                            ServerTls.credentials(settings.tls()))
                    .addService(ServerInterceptors.intercept(new S3LifecycleService(lifecycleDeletes), faults))
                    .build().start();
            if (settings.adminPort() >= 0) {
                admin = AdminHttpServer.start(settings.bindHost(), settings.adminPort(), gateway, faults, cluster);
            }
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot start the filer emulator: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        log.info("filer emulator up in {} ms: filer gRPC {}, master {}, S3 gRPC {}, admin {}, data {}",
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began), filerAddresses(), masterAddress(),
                s3GrpcAddress(),
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

    /**
     * The signature of filer {@code index}: random in memory; with a data directory it survives restarts, as a filer's
     * own id does ({@code signature} for the first filer, {@code filer-<index>.signature} for the others).
     */
    private int signature(int index) {
        if (settings.dataDir() == null) {
            return ThreadLocalRandom.current().nextInt();
        }
        return signature(settings.dataDir().resolve(index == 0 ? "signature" : "filer-" + index + ".signature"));
    }

    private static int signature(Path file) {
        Path dataDir = file.getParent();
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

    /** The first filer's gRPC address. */
    public String filerAddress() {
        return filerAddress(0);
    }

    /** The gRPC address of filer {@code index} (from 0, in the order they joined), whether it is up or not. */
    public String filerAddress(int index) {
        return cluster.filerAddress(index);
    }

    public List<String> filerAddresses() {
        return cluster.filerAddresses();
    }

    /** The master's gRPC address: {@code ListClusterNodes} there lists the filers that are up. */
    public String masterAddress() {
        return cluster.masterAddress();
    }

    /** Filer {@code index}'s events, clock and delay knobs. */
    public FilerNode filer(int index) {
        return cluster.filer(index);
    }

    public int filerCount() {
        return cluster.size();
    }

    /** Stops filer {@code index}: subscriptions to it break, calls are refused, the master stops listing it. */
    public void stopFiler(int index) {
        cluster.stopFiler(index);
    }

    /** Starts filer {@code index} again, on the port it had, its log intact. */
    public void startFiler(int index) {
        cluster.startFiler(index);
    }

    /** Adds a filer to the running cluster, on a port of its own; returns its index. */
    public int addFiler() {
        return cluster.addFiler();
    }

    /** Delays filer {@code index}'s events on their way to its peers' aggregated streams. */
    public void delayFiler(int index, Duration delay) {
        cluster.delayFiler(index, delay);
    }

    /** Delivers filer {@code index}'s own meta-log stream {@code delay} after its events are stamped. */
    public void delayLocalStream(int index, Duration delay) {
        cluster.delayLocalStream(index, delay);
    }

    /** Moves filer {@code index}'s clock, which stamps its events, {@code offset} from the emulator's clock. */
    public void setFilerClockOffset(int index, Duration offset) {
        cluster.setFilerClockOffset(index, offset);
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

    /** Where the buckets live, as the filer's paths spell it ({@code /buckets} by default). */
    public String bucketsDirectory() {
        return FilerPaths.normalize(settings.bucketsDirectory());
    }

    public FaultInjector faults() {
        return faults;
    }

    /**
     * Puts filer {@code index}'s own meta-log stream out of reach ({@code SubscribeLocalMetadata} breaks and is refused
     * with UNAVAILABLE) or back in reach, while the filer goes on recording writes and its peers' streams go on.
     */
    public void refuseLocalStreams(int index, boolean refused) {
        cluster.refuseLocalStreams(index, refused);
    }

    /** Breaks every open meta-log subscription of every filer with UNAVAILABLE, as a filer restart would. */
    public int dropSubscriptions() {
        return cluster.dropSubscriptions();
    }

    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        if (admin != null) {
            admin.close();
        }
        if (cluster != null) {
            cluster.close();
        }
        Servers.stop(s3Server);
        if (store != null) {
            store.close();
        }
    }
}
