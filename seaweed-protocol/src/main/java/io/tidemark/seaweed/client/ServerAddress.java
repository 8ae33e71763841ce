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
        return grpcPorts(text).http();
    }

    /** Where the server's gRPC service listens: the explicit gRPC port, else the HTTP port plus 10000. */
    public HostPort grpcAddress() {
        return grpcPorts(text).grpc();
    }

    private record Ports(HostPort http, HostPort grpc) {
    }

    private static Ports grpcPorts(String address) {
        int dot = address.lastIndexOf('.');
        boolean named = dot > address.lastIndexOf(':') && address.lastIndexOf(':') > 0;
        try {
            // HostPort reads the host:port part (brackets included) and checks both ports' range.
            HostPort http = HostPort.parse(named ? address.substring(0, dot) : address);
            int grpc = named ? Integer.parseInt(address.substring(dot + 1)) : http.port() + GRPC_PORT_OFFSET;
            return new Ports(http, new HostPort(http.host(), grpc));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("a server address is host:port[.grpcPort], not \"" + address + "\"", e);
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
