package io.tidemark.localcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Free loopback ports, for servers whose configuration needs the port before they bind. A port is only known to
 * be free while something holds it, so every port one server needs is chosen with all of them held open at once
 * (the OS then cannot hand out one of them twice); between release and the server's bind another process can still
 * take one, which {@link #bindClash} recognises so the caller can choose again.
 */
final class Ports {

    /** Where a node's ports come from; tests substitute one that hands out taken ports. */
    @FunctionalInterface
    interface Source {
        /** {@code count} loopback ports, distinct from each other. */
        List<Integer> take(int count);
    }

    private Ports() {
    }

    static List<Integer> distinct(int count) {
        List<ServerSocket> held = new ArrayList<>(count);
        try {
            List<Integer> ports = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(socket);
                ports.add(socket.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("no free port", e);
        } finally {
            for (ServerSocket socket : held) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // Closing a listening socket that accepted nothing cannot lose anything.
                }
            }
        }
    }

    /** Whether a start-up failed because a port it was to listen on is in use. */
    static boolean bindClash(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            String message = t.getMessage();
            if (t instanceof BindException || message != null && message.contains("Address already in use")) {
                return true;
            }
        }
        return false;
    }
}
