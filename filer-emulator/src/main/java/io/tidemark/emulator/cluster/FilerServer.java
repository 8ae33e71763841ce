package io.tidemark.emulator.cluster;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.tidemark.emulator.filer.FilerNode;
import io.tidemark.emulator.filer.FilerService;
import io.tidemark.emulator.filer.FilerStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * One filer's gRPC server, which can be stopped and started again on the port it first had, as a filer process is
 * restarted; its log lives in its {@link FilerNode} and survives.
 */
final class FilerServer {

    private final FilerStore store;
    private final FilerNode filer;
    private final ServerSetup setup;
    private final Instant joined;
    private int port;
    private FilerService service;
    private Server server;

    FilerServer(FilerStore store, FilerNode filer, ServerSetup setup, int port, Instant joined) {
        this.store = store;
        this.filer = filer;
        this.setup = setup;
        this.port = port;
        this.joined = joined;
    }

    synchronized void start() {
        if (server != null) {
            return;
        }
        FilerService started = new FilerService(store, filer, setup.bucketsDirectory(), setup.heartbeatInterval());
        try {
            server = NettyServerBuilder.forAddress(new InetSocketAddress(setup.bindHost(), port), setup.credentials())
                    .addService(ServerInterceptors.intercept(started, setup.faults()))
                    .maxInboundMessageSize(64 << 20)
                    .build().start();
        } catch (IOException e) {
            started.close();
            throw new UncheckedIOException("cannot start " + filer + " on port " + port + ": " + e.getMessage(), e);
        }
        // A port of 0 picked one: the filer keeps it, so a restart comes back where clients knew it.
        port = server.getPort();
        service = started;
        filer.setServing(true);
    }

    /** Stops serving: open subscriptions break with UNAVAILABLE and new calls are refused. */
    synchronized void stop() {
        if (server == null) {
            return;
        }
        filer.setServing(false);
        service.close();
        Servers.stop(server);
        server = null;
        service = null;
    }

    synchronized boolean running() {
        return server != null;
    }

    synchronized int dropSubscriptions() {
        return service == null ? 0 : service.dropSubscriptions();
    }

    FilerNode filer() {
        return filer;
    }

    synchronized int port() {
        return port;
    }

    Instant joined() {
        return joined;
    }

    String address() {
        return setup.bindHost() + ":" + port();
    }
}
