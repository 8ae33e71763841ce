package io.tidemark.seaweed.client;

import java.time.Instant;

/**
 * One server the master lists ({@code ListClusterNodesResponse.ClusterNode}).
 *
 * @param address   where it is, as it registered
 * @param version   the SeaweedFS version it runs
 * @param createdAt when it registered with the master
 */
public record ClusterNode(ServerAddress address, String version, Instant createdAt) {

    /** Where to dial its gRPC service. */
    public HostPort grpcAddress() {
        return address.grpcAddress();
    }
}
