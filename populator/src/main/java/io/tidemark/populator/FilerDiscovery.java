package io.tidemark.populator;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.seaweed.client.ClusterNode;
import io.tidemark.seaweed.client.HostPort;
import io.tidemark.seaweed.client.MasterClient;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which filers the cluster has: those {@code filer.addresses} lists, and those the master's cluster node list
 * ({@code ListClusterNodes}, type filer) names when {@code filer.master.address} is set. A filer the master no
 * longer lists is not forgotten here — the tailer keeps its cursor until it is retired — and while the master does
 * not answer, its last answer stands.
 */
final class FilerDiscovery implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(FilerDiscovery.class);
    private static final Duration MASTER_DEADLINE = Duration.ofSeconds(2);

    private final List<String> listed;
    private final Supplier<List<ClusterNode>> master;
    private final AutoCloseable masterClient;
    private Map<String, Optional<Instant>> lastFromMaster = Map.of();
    private boolean masterFailing;

    FilerDiscovery(List<String> listed, Supplier<List<ClusterNode>> master, AutoCloseable masterClient) {
        this.listed = listed.stream().map(a -> HostPort.parse(a.trim()).toString()).toList();
        this.master = master;
        this.masterClient = masterClient;
    }

    /** From the settings; {@link #enabled()} is false when neither a list nor a master is given. */
    static FilerDiscovery from(TidemarkConfig config) {
        List<String> listed = config.getList(TidemarkConfig.FILER_ADDRESSES);
        String masterAddress = config.getString(TidemarkConfig.FILER_MASTER_ADDRESS);
        if (masterAddress == null || masterAddress.isBlank()) {
            return new FilerDiscovery(listed, null, null);
        }
        // Asked from the tail loop: a master that does not answer must not hold the publishing up for long.
        Duration deadline = config.grpcDeadline().compareTo(MASTER_DEADLINE) < 0 ? config.grpcDeadline()
                : MASTER_DEADLINE;
        MasterClient client = MasterClient.connect(masterAddress, config.grpcTls(), deadline);
        return new FilerDiscovery(listed, client::listFilers, client);
    }

    /** Whether the master is asked (a filer it stops listing may only be down). */
    boolean fromMaster() {
        return master != null;
    }

    /** Whether the cluster's filers are to be tailed one by one. */
    boolean enabled() {
        return !listed.isEmpty() || master != null;
    }

    /**
     * The filers known now, by gRPC address, with when each joined the cluster where the master says ({@code empty}
     * for a filer only listed in the settings).
     *
     * @param listed whether the master answered this time: then every filer it had at the call is here
     */
    record Found(Map<String, Optional<Instant>> filers, boolean listed) {
    }

    /** Every filer known now: those listed in the settings, and the master's, as it answers now or last did. */
    Found find() {
        Map<String, Optional<Instant>> found = new LinkedHashMap<>();
        listed.forEach(a -> found.put(a, Optional.empty()));
        boolean answered = false;
        if (master != null) {
            try {
                Map<String, Optional<Instant>> fromMaster = new LinkedHashMap<>();
                for (ClusterNode node : master.get()) {
                    fromMaster.put(node.grpcAddress().toString(), Optional.ofNullable(node.createdAt()));
                }
                if (masterFailing) {
                    log.info("the master answers again: {} filer(s)", fromMaster.size());
                }
                masterFailing = false;
                lastFromMaster = fromMaster;
                answered = true;
            } catch (RuntimeException e) {
                if (!masterFailing) {
                    log.warn("the master's filer list cannot be read ({}); going on with the last one, {} filer(s)",
                            e.getMessage(), lastFromMaster.size());
                }
                masterFailing = true;
            }
            lastFromMaster.forEach(found::putIfAbsent);
        }
        return new Found(found, answered);
    }

    @Override
    public void close() throws Exception {
        if (masterClient != null) {
            masterClient.close();
        }
    }
}
