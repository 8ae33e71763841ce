package io.tidemark.objectprocessor;

import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.client.SeaweedCheck;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the cluster lets the processor do its work: the S3 gateway serves {@code LifecycleDelete}, and the filer
 * answers (with its version). Asked at start, where a gateway without the RPC is refused, then again while the
 * processor runs ({@code object-processor.cluster.check.interval.ms}, every second while something is wrong); an answer
 * to a task's own call counts as the gateway's, so a busy processor does not ask. The processor is ready only while
 * both answered, and holds every task while the gateway does not serve the RPC: each call would be refused and its
 * task parked. The probes change nothing on the cluster ({@link SeaweedCheck}).
 */
final class ClusterCheck implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterCheck.class);

    /** Longest the start waits for the answers; one not in by then is taken as none, and asked again later. */
    static final Duration START_WAIT = Duration.ofSeconds(5);
    /** How soon a check that found something wrong is made again. */
    static final Duration RETRY = Duration.ofSeconds(1);

    private final LifecycleDeleteClient gatewayClient;
    private final String gatewayAddress;
    private final FilerClient filerClient;
    private final String filerAddress;
    private final Duration interval;
    private final AtomicLong changes = new AtomicLong();

    private volatile SeaweedCheck.Gateway gateway;
    private volatile SeaweedCheck.Filer filer;
    /** When a task's call was last answered ({@link System#nanoTime}); 0 when none has been. */
    private volatile long lastAnsweredNanos;
    private volatile boolean closed;
    /** Past {@link #atStart}: a gateway without the RPC found now is logged, not refused. */
    private volatile boolean started;
    private boolean gatewayAsked;
    private boolean filerAsked;

    ClusterCheck(LifecycleDeleteClient gatewayClient, String gatewayAddress, FilerClient filerClient,
                 String filerAddress, Duration interval) {
        this.gatewayClient = gatewayClient;
        this.gatewayAddress = gatewayAddress;
        this.filerClient = filerClient;
        this.filerAddress = filerAddress;
        this.interval = interval;
        this.gateway = new SeaweedCheck.Gateway(gatewayAddress, SeaweedCheck.Gateway.State.UNANSWERED, "not asked yet");
        this.filer = new SeaweedCheck.Filer(filerAddress, null, null, false, "not asked yet");
    }

    /**
     * Asks both, waiting at most {@link #START_WAIT} for them.
     *
     * @throws IllegalStateException in one line naming the release needed, when the gateway does not serve
     *                               {@code LifecycleDelete}; one that does not answer is no reason to refuse (the
     *                               processor is not ready until it does)
     */
    void atStart() throws InterruptedException {
        try {
            check().get(START_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            log.warn("the S3 gateway at {} or the filer at {} did not answer within {} s; asking again while the "
                    + "processor starts", gatewayAddress, filerAddress, START_WAIT.toSeconds());
        } catch (ExecutionException e) {
            throw new IllegalStateException("checking the cluster failed: " + e.getCause(), e.getCause());
        }
        SeaweedCheck.Gateway found = gateway;
        if (found.state() == SeaweedCheck.Gateway.State.UNIMPLEMENTED) {
            throw new IllegalStateException(found.describe());
        }
        started = true;
    }

    /** Asks the filer, and the gateway unless a task's call was answered within the interval; completes when done. */
    CompletableFuture<Void> check() {
        CompletableFuture<Void> gatewayDone;
        if (gateway.state() == SeaweedCheck.Gateway.State.SERVED && lastAnsweredNanos != 0
                && System.nanoTime() - lastAnsweredNanos < interval.toNanos()) {
            gatewayDone = CompletableFuture.completedFuture(null);
        } else {
            gatewayDone = SeaweedCheck.gateway(gatewayClient, gatewayAddress).thenAccept(this::gatewayFound);
        }
        CompletableFuture<Void> filerDone = SeaweedCheck.filer(filerClient, filerAddress).thenAccept(this::filerFound);
        return CompletableFuture.allOf(gatewayDone, filerDone);
    }

    /** Checks again on {@code scheduler} until closed: each interval while all is well, each second while not. */
    void follow(ScheduledExecutorService scheduler) {
        schedule(scheduler, ready() ? interval : shorter(interval, RETRY));
    }

    private void schedule(ScheduledExecutorService scheduler, Duration delay) {
        if (closed) {
            return;
        }
        try {
            scheduler.schedule(() -> check().whenComplete((ignored, error) -> {
                if (error != null) {
                    log.warn("checking the cluster failed: {}", error.toString());
                }
                schedule(scheduler, ready() ? interval : shorter(interval, RETRY));
            }), delay.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopping) {
            // The processor is stopping: nothing more to check.
        }
    }

    private static Duration shorter(Duration a, Duration b) {
        return a.compareTo(b) < 0 ? a : b;
    }

    /**
     * What a task's {@code LifecycleDelete} said of the gateway: an answer that it serves the RPC, UNIMPLEMENTED that it
     * does not; any other failure says nothing the check would not find itself.
     */
    void observed(Object response, Throwable error) {
        if (error == null) {
            lastAnsweredNanos = System.nanoTime();
            if (gateway.state() != SeaweedCheck.Gateway.State.SERVED) {
                gatewayFound(new SeaweedCheck.Gateway(gatewayAddress, SeaweedCheck.Gateway.State.SERVED, null));
            }
            return;
        }
        SeaweedCheck.Gateway found = SeaweedCheck.gatewayFailed(gatewayAddress, error);
        if (found.state() == SeaweedCheck.Gateway.State.UNIMPLEMENTED) {
            gatewayFound(found);
        }
    }

    private synchronized void gatewayFound(SeaweedCheck.Gateway found) {
        if (closed) {
            return;
        }
        SeaweedCheck.Gateway before = gateway;
        gateway = found;
        boolean first = !gatewayAsked;
        gatewayAsked = true;
        if (before.state() != found.state()) {
            changes.incrementAndGet();
        } else if (!first) {
            return;
        }
        switch (found.state()) {
            // Refused at start: said once, by the failure to start.
            case UNIMPLEMENTED -> {
                if (started) {
                    log.error("{}; every task is held, and the processor is not ready, until it does",
                            found.describe());
                }
            }
            case SERVED -> log.info("{}", found.describe());
            case UNANSWERED -> log.warn("{}; the processor is not ready until it answers", found.describe());
        }
    }

    private synchronized void filerFound(SeaweedCheck.Filer found) {
        if (closed) {
            return;
        }
        SeaweedCheck.Filer before = filer;
        filer = found;
        boolean first = !filerAsked;
        filerAsked = true;
        if (found.answered()) {
            if (first || !before.answered() || !found.version().equals(before.version())) {
                if (found.older()) {
                    log.warn("{}", found.describe());
                } else {
                    log.info("{}", found.describe());
                }
            }
        } else if (first || before.answered()) {
            log.warn("{}; the processor is not ready until it answers", found.describe());
        }
    }

    /** Both answered when last asked, and the gateway serves {@code LifecycleDelete}. */
    boolean ready() {
        return gateway.state() == SeaweedCheck.Gateway.State.SERVED && filer.answered();
    }

    /** The gateway said it does not serve {@code LifecycleDelete}: every call would be refused. */
    boolean gatewayLacksLifecycleDelete() {
        return gateway.state() == SeaweedCheck.Gateway.State.UNIMPLEMENTED;
    }

    /** Changes whenever the gateway's state does: tasks held for it are looked at again then. */
    long changes() {
        return changes.get();
    }

    SeaweedCheck.Gateway gateway() {
        return gateway;
    }

    SeaweedCheck.Filer filer() {
        return filer;
    }

    @Override
    public synchronized void close() {
        closed = true;
    }
}
