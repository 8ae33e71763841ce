package io.tidemark.service;

import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A long-running service with a start/close state machine: it starts once, close is idempotent and safe in any
 * state, and a failure is remembered. Liveness fails only when the service failed; readiness holds only while it
 * runs and its own check passes.
 */
public abstract class ManagedService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ManagedService.class);

    private final String name;
    private final AtomicReference<ServiceState> state = new AtomicReference<>(ServiceState.NEW);
    private volatile Throwable failure;

    protected ManagedService(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public ServiceState state() {
        return state.get();
    }

    public Throwable failure() {
        return failure;
    }

    public final void start() {
        if (!state.compareAndSet(ServiceState.NEW, ServiceState.STARTING)) {
            throw new IllegalStateException(name + " cannot be started more than once (it is " + state.get() + ")");
        }
        try {
            doStart();
            if (!state.compareAndSet(ServiceState.STARTING, ServiceState.RUNNING)) {
                log.info("{} was stopped while starting", name);
            }
        } catch (Exception e) {
            fail(e);
            throw new IllegalStateException(name + " failed to start: " + e.getMessage(), e);
        }
    }

    /** Marks the service failed (liveness goes down) and stops what it started. */
    public final void fail(Throwable cause) {
        failure = cause;
        ServiceState previous = state.getAndSet(ServiceState.FAILED);
        if (previous != ServiceState.FAILED && previous != ServiceState.STOPPED) {
            log.error("{} failed: {}", name, cause.toString(), cause);
            stopQuietly();
        }
    }

    @Override
    public final void close() {
        ServiceState previous = state.getAndUpdate(s -> s.finished() ? s : ServiceState.STOPPING);
        if (previous.finished() || previous == ServiceState.STOPPING) {
            return;
        }
        stopQuietly();
        state.compareAndSet(ServiceState.STOPPING, ServiceState.STOPPED);
    }

    private void stopQuietly() {
        try {
            doStop();
        } catch (Exception e) {
            log.warn("{} did not stop cleanly: {}", name, e.toString(), e);
        }
    }

    public boolean live() {
        return state.get() != ServiceState.FAILED;
    }

    public boolean ready() {
        return state.get() == ServiceState.RUNNING && readinessCheck();
    }

    protected abstract void doStart() throws Exception;

    /** Releases what {@link #doStart} acquired; may be called after a partial start. */
    protected abstract void doStop() throws Exception;

    /** The service's own readiness beyond running, e.g. "the consumer has its partitions". */
    protected boolean readinessCheck() {
        return true;
    }

    /**
     * Starts the service's worker: a thread named {@code threadName} that runs {@code loop}. An exception that escapes
     * the loop fails the service (liveness goes down and what it started is stopped) rather than ending the thread
     * unseen. {@link #stopWorker} stops it.
     */
    protected final Thread startWorker(String threadName, Runnable loop) {
        Thread worker = new Thread(() -> {
            try {
                loop.run();
            } catch (RuntimeException e) {
                fail(e);
            }
        }, threadName);
        worker.start();
        return worker;
    }

    /**
     * Waits for a service's worker thread to finish what it has in hand — three quarters of the shutdown timeout,
     * at least a second — then interrupts it and waits two seconds more. Does nothing from the worker itself (a
     * service the worker failed is closed on that thread).
     */
    protected static void stopWorker(Thread worker, java.time.Duration shutdownTimeout) throws InterruptedException {
        if (worker == null || worker == Thread.currentThread()) {
            return;
        }
        worker.join(Math.max(1_000, shutdownTimeout.toMillis() * 3 / 4));
        if (worker.isAlive()) {
            worker.interrupt();
            worker.join(2_000);
        }
    }

    /**
     * Waits until every service is ready, for commands that run several in one process.
     *
     * @throws IllegalStateException when one fails to start or is not ready within {@code timeout}
     */
    public static void awaitReady(java.util.List<? extends ManagedService> services, java.time.Duration timeout)
            throws InterruptedException {
        awaitReady(services, timeout, service -> { });
    }

    /**
     * As {@link #awaitReady(java.util.List, java.time.Duration)}, telling {@code becameReady} of each service as it
     * became ready (services start in parallel; the order is theirs).
     */
    public static void awaitReady(java.util.List<? extends ManagedService> services, java.time.Duration timeout,
                                  java.util.function.Consumer<ManagedService> becameReady) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        java.util.List<ManagedService> waiting = new java.util.ArrayList<>(services);
        while (true) {
            for (java.util.Iterator<ManagedService> it = waiting.iterator(); it.hasNext(); ) {
                ManagedService service = it.next();
                if (service.failure() != null) {
                    throw new IllegalStateException(service.name() + " failed to start: " + service.failure(),
                            service.failure());
                }
                if (service.ready()) {
                    it.remove();
                    becameReady.accept(service);
                }
            }
            if (waiting.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(waiting.get(0).name() + " not ready within " + timeout.toSeconds()
                        + " s");
            }
            Thread.sleep(20);
        }
    }
}
