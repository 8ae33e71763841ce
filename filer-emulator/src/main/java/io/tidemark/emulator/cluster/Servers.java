package io.tidemark.emulator.cluster;

import io.grpc.Server;
import java.util.concurrent.TimeUnit;

/** Stopping an emulated server as a SeaweedFS process stops: calls in flight get five seconds, then it is cut. */
public final class Servers {

    private Servers() {
    }

    public static void stop(Server server) {
        if (server == null) {
            return;
        }
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
