package io.tidemark.cli.status;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.client.SeaweedCheck;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Asks SeaweedFS what the object processors ask it at start: the filer's version, and whether the S3 gateway serves
 * {@code LifecycleDelete} (a call naming no object, which every release serving it refuses before reading anything).
 */
final class SeaweedStatus {

    private static final Duration DEADLINE = Duration.ofSeconds(5);

    private SeaweedStatus() {
    }

    static StatusReport.SeaweedFs read(TidemarkConfig config) {
        String gatewayAddress = config.getString(TidemarkConfig.S3_GRPC_ADDRESS);
        String filerAddress = config.getString(TidemarkConfig.FILER_ADDRESS);
        CompletableFuture<SeaweedCheck.Gateway> gateway;
        CompletableFuture<SeaweedCheck.Filer> filer;
        LifecycleDeleteClient gatewayClient = null;
        FilerClient filerClient = null;
        try {
            try {
                gatewayClient = LifecycleDeleteClient.connect(gatewayAddress, config.grpcTls(), DEADLINE);
                gateway = SeaweedCheck.gateway(gatewayClient, gatewayAddress);
            } catch (RuntimeException e) {
                gateway = CompletableFuture.completedFuture(new SeaweedCheck.Gateway(gatewayAddress,
                        SeaweedCheck.Gateway.State.UNANSWERED, e.getMessage()));
            }
            try {
                filerClient = FilerClient.connect(filerAddress, config.grpcTls(), DEADLINE);
                filer = SeaweedCheck.filer(filerClient, filerAddress);
            } catch (RuntimeException e) {
                filer = CompletableFuture.completedFuture(new SeaweedCheck.Filer(filerAddress, null, null, false,
                        e.getMessage()));
            }
            return new StatusReport.SeaweedFs(filer.join(), gateway.join());
        } finally {
            if (gatewayClient != null) {
                gatewayClient.close();
            }
            if (filerClient != null) {
                filerClient.close();
            }
        }
    }

    /** Why SeaweedFS, as status found it, degrades the pipeline; {@code filerReported}: said already elsewhere. */
    static List<String> reasons(StatusReport.SeaweedFs seaweed, boolean filerReported) {
        List<String> reasons = new java.util.ArrayList<>();
        switch (seaweed.gateway().state()) {
            case UNIMPLEMENTED -> reasons.add(seaweed.gateway().describe() + "; object processors refuse to start "
                    + "on it, and hold every task while they find it");
            case UNANSWERED -> reasons.add(seaweed.gateway().describe() + ": object processors are not ready "
                    + "while it does not");
            case SERVED -> { }
        }
        if (!seaweed.filer().answered() && !filerReported) {
            reasons.add(seaweed.filer().describe());
        }
        return reasons;
    }
}
