package io.tidemark.seaweed.client;

/**
 * A SeaweedFS server address as the master hands it out ({@code weed/pb/server_address.go}): {@code host:port}, the
 * server's HTTP port, whose gRPC port is by convention that port plus 10000; or {@code host:port.grpcPort}, which
 * names the gRPC port outright. A server started with a gRPC port off the convention registers the second form.
 *
 * @param text the address exactly as the master sent it
 */
public record ServerAddress(String text) {

    /** How far above the HTTP port SeaweedFS puts the gRPC port unless told otherwise. */
    public static final int GRPC_PORT_OFFSET = 10000;

    public ServerAddress {
        if (text == null || text.isEmpty()) {
            throw new IllegalArgumentException("the server address is empty");
        }
        // Parsing once here makes a malformed address fail where it enters, not where it is dialled.
        grpcPorts(text);
    }

    public static ServerAddress of(HostPort http, int grpcPort) {
        return new ServerAddress(http + "." + grpcPort);
    }

    /** The HTTP address: the ports part without its {@code .grpcPort}. */
    public HostPort httpAddress() {
        Ports ports = grpcPorts(text);
        return new HostPort(ports.host(), ports.http());
    }

    /** Where the server's gRPC service listens: the explicit gRPC port, else the HTTP port plus 10000. */
    public HostPort grpcAddress() {
        Ports ports = grpcPorts(text);
        return new HostPort(ports.host(), ports.grpc());
    }

    private record Ports(String host, int http, int grpc) {
    }

    private static Ports grpcPorts(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("a server address is host:port[.grpcPort], not \"" + address + "\"");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String ports = address.substring(colon + 1);
        int dot = ports.lastIndexOf('.');
        try {
            int http = Integer.parseInt(dot < 0 ? ports : ports.substring(0, dot));
            int grpc = dot < 0 ? http + GRPC_PORT_OFFSET : Integer.parseInt(ports.substring(dot + 1));
            // HostPort checks both ports' range.
            new HostPort(host, http);
            new HostPort(host, grpc);
            return new Ports(host, http, grpc);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a server address is host:port[.grpcPort], not \"" + address + "\"", e);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
