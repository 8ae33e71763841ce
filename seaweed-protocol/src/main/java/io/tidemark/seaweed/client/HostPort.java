package io.tidemark.seaweed.client;

/** A {@code host:port} address; IPv6 hosts are written in brackets. */
public record HostPort(String host, int port) {

    public HostPort {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("the host is empty");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range");
        }
    }

    public static HostPort parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IllegalArgumentException("address must be host:port, not \"" + address + "\"");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            return new HostPort(host, Integer.parseInt(address.substring(colon + 1)));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address must be host:port, not \"" + address + "\"");
        }
    }

    @Override
    public String toString() {
        return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }
}
