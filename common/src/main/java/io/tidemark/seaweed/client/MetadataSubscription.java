package io.tidemark.seaweed.client;

import io.grpc.Context;
import io.grpc.StatusRuntimeException;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription to the filer meta-log that survives the stream breaking. A reader thread holds the gRPC
 * stream and hands events over through a bounded buffer, so a slow consumer slows the stream instead of
 * filling memory. When the stream fails with a transient error, ends unasked, or stays silent past the idle
 * timeout, the reader reconnects with capped exponential backoff and resumes from the last event it
 * delivered. The filer treats {@code since_ns} as inclusive, so the events already delivered at that
 * timestamp are counted and skipped: nothing is lost and nothing repeats, even where events share a
 * timestamp. Heartbeats (responses without an event) only keep the idle timer fresh.
 */
public final class MetadataSubscription implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetadataSubscription.class);

    public enum State { RUNNING, COMPLETED, FAILED, CLOSED }

    private final SeaweedFilerGrpc.SeaweedFilerBlockingStub stub;
    private final SubscriptionOptions options;
    private final BlockingQueue<SubscribeMetadataResponse> buffer;
    private final Thread reader;
    private final int clientId = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
    private final AtomicInteger reconnects = new AtomicInteger();
    private final ScheduledExecutorService idleWatch;

    private volatile State state = State.RUNNING;
    private volatile RuntimeException failure;
    private volatile Context.CancellableContext stream;
    private volatile long lastMessageNanos = System.nanoTime();
    private volatile boolean cancelledForIdleness;
    private volatile long lastDeliveredTsNs;

    // Reader-thread state: the resume position.
    private long resumeTsNs;
    private int seenAtResumeTs;
    private int toSkipAtResumeTs;
    private int epoch;

    private MetadataSubscription(SeaweedFilerGrpc.SeaweedFilerBlockingStub stub, SubscriptionOptions options) {
        this.stub = stub;
        this.options = options;
        this.buffer = new ArrayBlockingQueue<>(options.bufferSize());
        this.resumeTsNs = options.sinceNs();
        this.seenAtResumeTs = options.seenAtSinceNs();
        this.lastDeliveredTsNs = options.sinceNs();
        this.reader = new Thread(this::readLoop, "filer-subscription-" + options.clientName());
        this.reader.setDaemon(true);
        this.idleWatch = options.idleTimeout() == null ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "filer-subscription-idle-" + options.clientName());
            t.setDaemon(true);
            return t;
        });
    }

    static MetadataSubscription start(SeaweedFilerGrpc.SeaweedFilerBlockingStub stub, SubscriptionOptions options) {
        MetadataSubscription subscription = new MetadataSubscription(stub, options);
        subscription.reader.start();
        if (subscription.idleWatch != null) {
            long period = Math.max(1, options.idleTimeout().toMillis() / 4);
            subscription.idleWatch.scheduleAtFixedRate(subscription::checkIdle, period, period, TimeUnit.MILLISECONDS);
        }
        return subscription;
    }

    /**
     * The next event, waiting up to {@code timeout}; {@code null} when none came in time or the subscription
     * has ended (see {@link #state()}).
     *
     * @throws SeaweedCallException when the subscription failed with a permanent error
     */
    public SubscribeMetadataResponse poll(Duration timeout) throws InterruptedException {
        SubscribeMetadataResponse event = buffer.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (event == null && state == State.FAILED && buffer.isEmpty()) {
            throw failure;
        }
        return event;
    }

    public State state() {
        return state;
    }

    /** Whether every event the subscription will ever deliver has been taken. */
    public boolean finished() {
        return state != State.RUNNING && buffer.isEmpty();
    }

    public int reconnects() {
        return reconnects.get();
    }

    /** The timestamp of the newest event handed to the buffer. */
    public long lastDeliveredTsNs() {
        return lastDeliveredTsNs;
    }

    private void readLoop() {
        long backoffMillis = options.initialBackoff().toMillis();
        while (state == State.RUNNING) {
            boolean delivered = false;
            Context.CancellableContext context = Context.current().withCancellation();
            stream = context;
            cancelledForIdleness = false;
            toSkipAtResumeTs = seenAtResumeTs;
            Context previous = context.attach();
            try {
                Iterator<SubscribeMetadataResponse> responses = stub.subscribeMetadata(request());
                lastMessageNanos = System.nanoTime();
                while (responses.hasNext()) {
                    SubscribeMetadataResponse response = responses.next();
                    lastMessageNanos = System.nanoTime();
                    delivered |= offer(response);
                }
                if (options.untilNs() > 0) {
                    state = State.COMPLETED;
                    return;
                }
                log.info("subscription {}: the filer ended the stream; reconnecting", options.clientName());
            } catch (StatusRuntimeException e) {
                if (state != State.RUNNING) {
                    return;
                }
                if (cancelledForIdleness) {
                    log.warn("subscription {}: no message for {}; reconnecting", options.clientName(), options.idleTimeout());
                } else if (SeaweedCallException.classify(e.getStatus()) == FailureKind.PERMANENT) {
                    failure = new SeaweedCallException("SubscribeMetadata", e);
                    state = State.FAILED;
                    log.error("subscription {} failed: {}", options.clientName(), failure.getMessage());
                    return;
                } else {
                    log.warn("subscription {}: {}; reconnecting from ts_ns {}", options.clientName(),
                            e.getStatus(), resumeTsNs);
                }
            } catch (InterruptedException e) {
                return;
            } finally {
                context.detach(previous);
                context.cancel(null);
            }
            reconnects.incrementAndGet();
            epoch++;
            if (delivered) {
                backoffMillis = options.initialBackoff().toMillis();
            }
            try {
                Thread.sleep(backoffMillis);
            } catch (InterruptedException e) {
                return;
            }
            backoffMillis = Math.min(backoffMillis * 2, options.maxBackoff().toMillis());
        }
    }

    private SubscribeMetadataRequest request() {
        return SubscribeMetadataRequest.newBuilder()
                .setClientName(options.clientName())
                .setPathPrefix(options.pathPrefix())
                .setSinceNs(resumeTsNs)
                .setUntilNs(options.untilNs())
                .setClientId(clientId)
                .setClientEpoch(epoch)
                .setClientSupportsBatching(true)
                .setClientSupportsIdleHeartbeat(options.idleTimeout() != null)
                .build();
    }

    /** Buffers the events of one response; returns whether any was new. */
    private boolean offer(SubscribeMetadataResponse response) throws InterruptedException {
        boolean any = false;
        if (response.hasEventNotification()) {
            any = offerOne(response.getEventsCount() == 0 ? response : response.toBuilder().clearEvents().build());
        }
        for (SubscribeMetadataResponse batched : response.getEventsList()) {
            any |= offerOne(batched);
        }
        return any;
    }

    private boolean offerOne(SubscribeMetadataResponse event) throws InterruptedException {
        long ts = event.getTsNs();
        if (ts < resumeTsNs) {
            return false;
        }
        if (ts == resumeTsNs) {
            if (toSkipAtResumeTs > 0) {
                toSkipAtResumeTs--;
                return false;
            }
            seenAtResumeTs++;
        } else {
            resumeTsNs = ts;
            seenAtResumeTs = 1;
            toSkipAtResumeTs = 0;
        }
        buffer.put(event);
        lastDeliveredTsNs = ts;
        return true;
    }

    /** Cuts a stream that has gone silent, so the reader reconnects. */
    void checkIdle() {
        Duration idle = options.idleTimeout();
        Context.CancellableContext current = stream;
        if (idle != null && current != null && System.nanoTime() - lastMessageNanos > idle.toNanos()) {
            cancelledForIdleness = true;
            current.cancel(null);
        }
    }

    @Override
    public void close() {
        if (state == State.RUNNING) {
            state = State.CLOSED;
        }
        if (idleWatch != null) {
            idleWatch.shutdownNow();
        }
        Context.CancellableContext current = stream;
        if (current != null) {
            current.cancel(null);
        }
        reader.interrupt();
        try {
            reader.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
