package io.tidemark.emulator.cluster;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.tidemark.emulator.filer.FilerNode;
import io.tidemark.emulator.filer.FilerStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntUnaryOperator;

/**
 * The filers of the emulated cluster, each with its own gRPC server over the one shared store, and the master that
 * lists them. Filers are numbered in the order they joined, from 0; they can be stopped, started again on the same
 * port, delayed on their way to their peers, skewed in their clocks, and joined by new ones.
 */
public final class FilerCluster implements AutoCloseable {

    private final FilerStore store;
    private final ServerSetup setup;
    /** The signature of the filer with that index, as the emulator keeps it (across restarts when it persists). */
    private final IntUnaryOperator signatures;
    private final List<FilerServer> filers = new CopyOnWriteArrayList<>();
    private Server master;

    private FilerCluster(FilerStore store, ServerSetup setup, IntUnaryOperator signatures) {
        this.store = store;
        this.setup = setup;
        this.signatures = signatures;
    }

    /**
     * Starts a server for each of the store's filers, on {@code ports} (0: pick one), and the master on
     * {@code masterPort}.
     */
    public static FilerCluster start(FilerStore store, ServerSetup setup, IntUnaryOperator signatures, List<Integer> ports,
                                     int masterPort) {
        FilerCluster cluster = new FilerCluster(store, setup, signatures);
        try {
            List<FilerNode> nodes = store.filers();
            for (int i = 0; i < nodes.size(); i++) {
                FilerServer server = new FilerServer(store, nodes.get(i), setup, ports.get(i), store.clock().instant());
                cluster.filers.add(server);
                server.start();
            }
            cluster.master = NettyServerBuilder.forAddress(new InetSocketAddress(setup.bindHost(), masterPort),
                            setup.credentials())
                    .addService(ServerInterceptors.intercept(new MasterService(() -> List.copyOf(cluster.filers)),
                            setup.faults()))
                    .build().start();
            return cluster;
        } catch (IOException e) {
            cluster.close();
            throw new UncheckedIOException("cannot start the master: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    public int size() {
        return filers.size();
    }

    /** The gRPC address ({@code host:port}) of filer {@code index}, whether it is up or not. */
    public String filerAddress(int index) {
        return filers.get(index).address();
    }

    public List<String> filerAddresses() {
        return filers.stream().map(FilerServer::address).toList();
    }

    public String masterAddress() {
        return setup.bindHost() + ":" + master.getPort();
    }

    public FilerNode filer(int index) {
        return filers.get(index).filer();
    }

    public boolean running(int index) {
        return filers.get(index).running();
    }

    /** Stops filer {@code index}: its subscriptions break, calls to it are refused, the master no longer lists it. */
    public void stopFiler(int index) {
        filers.get(index).stop();
    }

    /** Starts filer {@code index} again on the port it had, with its log as it was. */
    public void startFiler(int index) {
        filers.get(index).start();
    }

    /** A new filer joins: a new signature, a port of its own, an empty log; the master lists it. Returns its index. */
    public synchronized int addFiler() {
        int index = filers.size();
        FilerNode node = store.addFiler(signatures.applyAsInt(index));
        FilerServer server = new FilerServer(store, node, setup, 0, store.clock().instant());
        server.start();
        filers.add(server);
        return index;
    }

    /** See {@link FilerNode#delayToPeers}. */
    public void delayFiler(int index, Duration delay) {
        filer(index).delayToPeers(delay);
    }

    /** See {@link FilerNode#delayLocalStream}. */
    public void delayLocalStream(int index, Duration delay) {
        filer(index).delayLocalStream(delay);
    }

    /** See {@link FilerNode#setClockOffset}. */
    public void setFilerClockOffset(int index, Duration offset) {
        filer(index).setClockOffset(offset);
    }

    /** Refuses filer {@code index}'s own meta-log stream, breaking the open ones, or serves it again. */
    public void refuseLocalStreams(int index, boolean refused) {
        filer(index).setLocalStreamsRefused(refused);
        if (refused) {
            filers.get(index).dropSubscriptions();
        }
    }

    /** Breaks every open subscription of every filer with UNAVAILABLE, as a restart would. */
    public int dropSubscriptions() {
        return filers.stream().mapToInt(FilerServer::dropSubscriptions).sum();
    }

    @Override
    public void close() {
        filers.forEach(FilerServer::stop);
        if (master != null) {
            master.shutdownNow();
            try {
                master.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
