package io.tidemark.localcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free loopback ports, for servers whose configuration needs the port before they bind. */
final class Ports {

    private Ports() {
    }

    static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        }
    }

    static int orFree(int port) {
        return port > 0 ? port : free();
    }
}
