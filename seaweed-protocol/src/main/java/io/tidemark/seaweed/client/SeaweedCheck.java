package io.tidemark.seaweed.client;

import io.grpc.Status;
import io.tidemark.seaweed.pb.FilerProto.GetFilerConfigurationResponse;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Whether a SeaweedFS cluster can serve Tidemark, asked without changing anything: does the S3 gateway serve
 * {@code LifecycleDelete}, and which release is the filer.
 *
 * <p>The gateway is asked with a {@code LifecycleDelete} that names no bucket and no object. Every SeaweedFS release
 * that serves the RPC (4.24 to 4.44 at least, {@code weed/s3api/s3api_internal_lifecycle.go}) answers such a request
 * BLOCKED ("empty bucket or object_path") as its very first step, before it reads or deletes anything; a gateway
 * without the RPC, or a gRPC server that is not a gateway, answers UNIMPLEMENTED. The filer is asked for its
 * configuration ({@code GetFilerConfiguration}), which carries its version.
 */
public final class SeaweedCheck {

    /**
     * The first SeaweedFS release whose S3 gateway serves {@code SeaweedS3LifecycleInternal/LifecycleDelete} with the
     * identity check ({@code expected_identity}): upstream tag 4.24, the first to contain both the RPC's server
     * (commit 5ab386000, PR #9349) and its registration on the gateway's gRPC port (commit c567da716, PR #9359).
     */
    public static final String LIFECYCLE_DELETE_RELEASE = "4.24";
    private static final int LIFECYCLE_DELETE_MAJOR = 4;
    private static final int LIFECYCLE_DELETE_MINOR = 24;

    private SeaweedCheck() {
    }

    /** What the S3 gateway answered the probe. */
    public record Gateway(String address, State state, String detail) {

        public enum State {
            /** It answered a {@code LifecycleDelete}: it serves the RPC. */
            SERVED,
            /** It does not serve {@code LifecycleDelete}: an older SeaweedFS, or not a gateway at all. */
            UNIMPLEMENTED,
            /** No answer (unreachable, a deadline, a failure of the call): it may serve the RPC; ask again later. */
            UNANSWERED
        }

        /** One line for logs and {@code tidemark status}. */
        public String describe() {
            return switch (state) {
                case SERVED -> "the S3 gateway at " + address + " serves LifecycleDelete";
                case UNIMPLEMENTED -> "the S3 gateway at " + address + " does not serve LifecycleDelete ("
                        + detail + "): Tidemark needs SeaweedFS " + LIFECYCLE_DELETE_RELEASE + " or newer, the first "
                        + "release whose S3 gateway serves it with the identity check; upgrade the gateway, or point "
                        + "s3.grpc.address at the gateway's gRPC port (its S3 port + 10000)";
                case UNANSWERED -> "the S3 gateway at " + address + " does not answer: " + detail;
            };
        }
    }

    /**
     * What the filer answered.
     *
     * @param version its version as it gave it ({@code "30GB 4.44 <commit>"} for SeaweedFS), or {@code null} when it
     *                did not answer
     * @param release major.minor as SeaweedFS numbers its releases ({@code 4.44}), or {@code null} when the filer gave
     *                no number (an emulator, a release before the field)
     * @param error   why it did not answer, or {@code null}
     */
    public record Filer(String address, String version, String release, boolean older, String error) {

        public boolean answered() {
            return error == null;
        }

        /** One line for logs and {@code tidemark status}. */
        public String describe() {
            if (!answered()) {
                return "the filer at " + address + " does not answer: " + error;
            }
            String quoted = "version \"" + version + "\"";
            if (release == null) {
                return "the filer at " + address + " answers: " + quoted;
            }
            return "the filer at " + address + " answers: SeaweedFS " + release + " (" + quoted + ")"
                    + (older ? ", older than " + LIFECYCLE_DELETE_RELEASE + ", the first release whose S3 gateway "
                    + "serves LifecycleDelete" : "");
        }
    }

    /** Asks the gateway at {@code address}; the future always completes normally, with what it found. */
    public static CompletableFuture<Gateway> gateway(LifecycleDeleteClient client, String address) {
        CompletableFuture<?> probe;
        try {
            probe = client.probeAsync();
        } catch (RuntimeException e) {
            probe = CompletableFuture.failedFuture(e);
        }
        return probe.handle((answer, error) -> error == null
                ? new Gateway(address, Gateway.State.SERVED, null)
                : gatewayFailed(address, error));
    }

    /**
     * What a failed {@code LifecycleDelete} says of the gateway: UNIMPLEMENTED that it does not serve the RPC, anything
     * else nothing but that it did not answer this time.
     */
    public static Gateway gatewayFailed(String address, Throwable error) {
        Status status = statusOf(error);
        String detail = status.getCode() + (status.getDescription() == null ? "" : ": " + status.getDescription());
        return new Gateway(address, status.getCode() == Status.Code.UNIMPLEMENTED ? Gateway.State.UNIMPLEMENTED
                : Gateway.State.UNANSWERED, detail);
    }

    /** Asks the filer at {@code address} for its version; the future always completes normally. */
    public static CompletableFuture<Filer> filer(FilerClient client, String address) {
        CompletableFuture<GetFilerConfigurationResponse> asked;
        try {
            asked = client.configurationAsync();
        } catch (RuntimeException e) {
            asked = CompletableFuture.failedFuture(e);
        }
        return asked.handle((configuration, error) -> {
            if (error != null) {
                Status status = statusOf(error);
                return new Filer(address, null, null, false, status.getCode() + (status.getDescription() == null
                        ? "" : ": " + status.getDescription()));
            }
            int major = configuration.getMajorVersion();
            int minor = configuration.getMinorVersion();
            boolean numbered = major > 0;
            return new Filer(address, configuration.getVersion().trim(),
                    numbered ? String.format(Locale.ROOT, "%d.%02d", major, minor) : null,
                    numbered && (major < LIFECYCLE_DELETE_MAJOR
                            || major == LIFECYCLE_DELETE_MAJOR && minor < LIFECYCLE_DELETE_MINOR), null);
        });
    }

    private static Status statusOf(Throwable error) {
        Throwable t = error;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        if (t instanceof SeaweedCallException call && call.getCause() != null) {
            t = call.getCause();
        }
        return Status.fromThrowable(t);
    }
}
