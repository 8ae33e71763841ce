package io.tidemark.seaweed.client;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.protobuf.ProtoUtils;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.ClientResponseObserver;
import io.tidemark.seaweed.pb.FilerViewProto.SubscribeMetadataResponseView;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A subscription to the filer meta-log that survives the stream breaking. Events arrive on gRPC's own threads
 * and wait in a buffer for {@link #poll}. One response may carry a batch of up to
 * {@value #MAX_EVENTS_PER_MESSAGE} events, so the stream is asked for another message only while the buffer
 * has room for a full batch (and for one at a time when it has room for less): the buffer holds at most its
 * size plus one batch of events, and a slow consumer slows the stream instead of filling memory. When the stream
 * fails with a transient error, ends unasked, or stays silent past the idle timeout, the subscription reconnects
 * with capped exponential backoff and resumes from the last event it delivered. The filer reads {@code since_ns}
 * inclusively from its memory and exclusively from its log files on disk, and re-sends the events at the last
 * timestamp it sent when a stream moves from disk to memory. So the subscription asks from one nanosecond before
 * its resume timestamp, which gets every event at that timestamp either way, and drops what it already has there:
 * the events it delivered at that timestamp are remembered by content (and, after a restart, the first ones are
 * skipped by the count the caller kept). Nothing is lost and nothing repeats, even where events share a timestamp.
 * Heartbeats (responses without an event) keep the idle timer fresh and tell {@link #silentFor} the filer is there.
 */
public final class MetadataSubscription implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetadataSubscription.class);

    public enum State { RUNNING, COMPLETED, FAILED, CLOSED }

    /** The most events a filer packs into one response (upstream's batch limit). */
    public static final int MAX_EVENTS_PER_MESSAGE = 256;

    /**
     * SubscribeMetadata read into the wire view, which leaves each event notification encoded; the subscription
     * decodes it once and keeps the bytes beside it (see {@link FilerEvent}).
     */
    private static final MethodDescriptor<SubscribeMetadataRequest, SubscribeMetadataResponseView> SUBSCRIBE =
            viewOf(SeaweedFilerGrpc.getSubscribeMetadataMethod());
    private static final MethodDescriptor<SubscribeMetadataRequest, SubscribeMetadataResponseView> SUBSCRIBE_LOCAL =
            viewOf(SeaweedFilerGrpc.getSubscribeLocalMetadataMethod());

    private static MethodDescriptor<SubscribeMetadataRequest, SubscribeMetadataResponseView> viewOf(
            MethodDescriptor<SubscribeMetadataRequest, SubscribeMetadataResponse> method) {
        return method.toBuilder(ProtoUtils.marshaller(SubscribeMetadataRequest.getDefaultInstance()),
                ProtoUtils.marshaller(SubscribeMetadataResponseView.getDefaultInstance())).build();
    }

    private final SeaweedFilerGrpc.SeaweedFilerStub stub;
    private final SubscriptionOptions options;
    private final LinkedBlockingQueue<FilerEvent> buffer = new LinkedBlockingQueue<>();
    private final ScheduledExecutorService scheduler;
    private final int clientId = ThreadLocalRandom.current().nextInt(1, Integer.MAX_VALUE);
    private final AtomicInteger reconnects = new AtomicInteger();
    private final AtomicLong outOfOrder = new AtomicLong();
    private final AtomicLong repeats = new AtomicLong();

    private volatile State state = State.RUNNING;
    private volatile RuntimeException failure;
    private volatile long lastMessageNanos = System.nanoTime();
    private volatile long lastHeardNanos = System.nanoTime();
    private volatile boolean heardFrom;
    private volatile long lastDeliveredTsNs;
    private volatile long flushedThroughTsNs;
    private final ConcurrentLinkedQueue<Connection> connections = new ConcurrentLinkedQueue<>();

    /**
     * One (re)connection of the stream: it asked for what follows {@code sinceTsNs} at {@code atNanoTime} on this
     * process's monotonic clock (to be placed on the filer's clock by whoever compares it with the filer's stamps,
     * never on this host's wall clock). A filer serves a local subscription's catch-up from the log files first and
     * then from its memory at the last stamp the files gave, across every filer's files on a shared store: its own
     * events not yet flushed and stamped before that are never sent. Whoever needs them reads the span again once it
     * is flushed.
     */
    public record Connection(long sinceTsNs, long atNanoTime) {
    }

    // Guarded by this: the resume position and the current stream.
    private ClientCallStreamObserver<SubscribeMetadataRequest> current;
    private int outstanding; // messages requested from the current stream and not yet received
    private boolean cancelledForIdleness;
    private long resumeTsNs;
    private long streamHighTsNs; // the newest timestamp the current stream has sent
    private int seenAtResumeTs;
    private int toSkipAtResumeTs;
    /** The events met at the resume timestamp in this process, by content, so a repeat of one is dropped. */
    private final Set<EventKey> atResumeTs = new HashSet<>();
    private int epoch;
    private long backoffMillis;

    private MetadataSubscription(SeaweedFilerGrpc.SeaweedFilerStub stub, SubscriptionOptions options) {
        this.stub = stub;
        this.options = options;
        this.resumeTsNs = options.sinceNs();
        this.seenAtResumeTs = options.seenAtSinceNs();
        this.lastDeliveredTsNs = options.sinceNs();
        this.backoffMillis = options.initialBackoff().toMillis();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "filer-subscription-" + options.clientName());
            t.setDaemon(true);
            return t;
        });
    }

    static MetadataSubscription start(SeaweedFilerGrpc.SeaweedFilerStub stub, SubscriptionOptions options) {
        MetadataSubscription subscription = new MetadataSubscription(stub, options);
        subscription.connect();
        if (options.idleTimeout() != null) {
            long period = Math.max(1, options.idleTimeout().toMillis() / 4);
            subscription.scheduler.scheduleAtFixedRate(subscription::checkIdle, period, period, TimeUnit.MILLISECONDS);
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
        FilerEvent next = pollEvent(timeout);
        return next == null ? null : next.response();
    }

    /** As {@link #poll}, with the event notification also as the filer encoded it. */
    public FilerEvent pollEvent(Duration timeout) throws InterruptedException {
        FilerEvent next = buffer.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
        if (next == null) {
            if (state == State.FAILED && buffer.isEmpty()) {
                throw failure;
            }
            return null;
        }
        grantCredit();
        return next;
    }

    public State state() {
        return state;
    }

    /** Whether every event the subscription will ever deliver has been taken. */
    public boolean finished() {
        return state != State.RUNNING && buffer.isEmpty();
    }

    /** Events skipped because they came after a newer one on the same stream (see {@link #accept}). */
    public long outOfOrder() {
        return outOfOrder.get();
    }

    public int reconnects() {
        return reconnects.get();
    }

    /** Events the filer sent again (at the timestamp the stream resumed from), dropped. */
    public long repeats() {
        return repeats.get();
    }

    /**
     * How long since the filer last sent anything, an event or a heartbeat. Unlike the idle timer, reconnecting
     * does not reset it: a subscription that keeps failing to reconnect falls ever further silent.
     */
    public Duration silentFor() {
        return Duration.ofNanos(System.nanoTime() - lastHeardNanos);
    }

    /** Whether the filer has sent anything at all (an event or a heartbeat) since the subscription began. */
    public boolean heardFrom() {
        return heardFrom;
    }

    /** Events received and not yet taken by {@link #poll}. */
    public int bufferedEvents() {
        return buffer.size();
    }

    /** The next (re)connection not yet taken, or {@code null}. */
    public Connection pollConnection() {
        return connections.poll();
    }

    /**
     * The newest {@code flushed_ts_ns} the filer reported (SeaweedFS 4.43 and later, on a local stream): everything it
     * stamped up to there is in the log files. 0 when it never said.
     */
    public long flushedThroughTsNs() {
        return flushedThroughTsNs;
    }

    /** The timestamp of the newest event handed to the buffer. */
    public long lastDeliveredTsNs() {
        return lastDeliveredTsNs;
    }

    private synchronized void connect() {
        if (state != State.RUNNING) {
            return;
        }
        // Events at the resume timestamp this process has not seen (a restart's) are skipped by count.
        toSkipAtResumeTs = Math.max(0, seenAtResumeTs - atResumeTs.size());
        streamHighTsNs = 0;
        cancelledForIdleness = false;
        lastMessageNanos = System.nanoTime();
        SubscribeMetadataRequest request = SubscribeMetadataRequest.newBuilder()
                .setClientName(options.clientName())
                .setPathPrefix(options.pathPrefix())
                .setSinceNs(resumeTsNs > 0 ? resumeTsNs - 1 : 0)
                .setUntilNs(options.untilNs())
                .setClientId(clientId)
                .setClientEpoch(epoch++)
                .setClientSupportsBatching(true)
                .setClientSupportsIdleHeartbeat(options.idleTimeout() != null)
                .build();
        connections.add(new Connection(resumeTsNs, System.nanoTime()));
        while (connections.size() > 1_000) {
            connections.poll(); // nobody takes them: a subscription with no use for them keeps the newest few
        }
        ClientCalls.asyncServerStreamingCall(stub.getChannel().newCall(options.localOnly() ? SUBSCRIBE_LOCAL : SUBSCRIBE,
                        stub.getCallOptions()), request,
                new StreamListener());
    }

    private final class StreamListener implements ClientResponseObserver<SubscribeMetadataRequest,
            SubscribeMetadataResponseView> {

        private ClientCallStreamObserver<SubscribeMetadataRequest> call;

        @Override
        public void beforeStart(ClientCallStreamObserver<SubscribeMetadataRequest> requestStream) {
            call = requestStream;
            synchronized (MetadataSubscription.this) {
                current = requestStream;
                outstanding = creditFor(buffer.size());
                requestStream.disableAutoRequestWithInitial(outstanding);
            }
        }

        @Override
        public void onNext(SubscribeMetadataResponseView response) {
            lastMessageNanos = System.nanoTime();
            lastHeardNanos = lastMessageNanos;
            heardFrom = true;
            offer(response, call);
            grantCredit();
        }

        @Override
        public void onError(Throwable t) {
            ended(Status.fromThrowable(t));
        }

        @Override
        public void onCompleted() {
            ended(null);
        }
    }

    /**
     * Messages the stream may be asked for with {@code buffered} events waiting: as many full batches as fit in
     * the room left, and one while there is any room at all, so the stream never stalls on a small buffer.
     */
    private int creditFor(int buffered) {
        int room = options.bufferSize() - buffered;
        return room <= 0 ? 0 : Math.max(1, room / MAX_EVENTS_PER_MESSAGE);
    }

    /** Tops the current stream's outstanding requests up to what the buffer's room allows. */
    private synchronized void grantCredit() {
        if (current == null || state != State.RUNNING) {
            return;
        }
        int more = creditFor(buffer.size()) - outstanding;
        if (more > 0) {
            if (outstanding == 0) {
                // Silence while nothing was asked for is this consumer's, not the filer's: the idle timer starts now.
                lastMessageNanos = System.nanoTime();
            }
            outstanding += more;
            current.request(more);
        }
    }

    /** Buffers the new events of one response; returns whether any was buffered. */
    private synchronized boolean offer(SubscribeMetadataResponseView response, ClientCallStreamObserver<?> call) {
        if (call == current && outstanding > 0) {
            outstanding--;
        }
        if (state != State.RUNNING) {
            return false;
        }
        if (response.getFlushedTsNs() > flushedThroughTsNs) {
            flushedThroughTsNs = response.getFlushedTsNs();
        }
        FilerEvent last = null;
        if (response.hasEventNotification() && accept(response)) {
            last = decode(response);
        }
        for (SubscribeMetadataResponseView batched : response.getEventsList()) {
            if (batched.hasEventNotification() && accept(batched)) {
                if (last != null) {
                    buffer.add(last);
                }
                last = decode(batched);
            }
        }
        if (last == null) {
            return false;
        }
        buffer.add(last);
        lastDeliveredTsNs = last.response().getTsNs();
        backoffMillis = options.initialBackoff().toMillis();
        return true;
    }

    private FilerEvent decode(SubscribeMetadataResponseView view) {
        return decode(view, options.clientName());
    }

    /**
     * Decodes one event. An undecodable notification still counts as an event, so the sequence stays whole: it is
     * delivered empty, without bytes to forward, and logged.
     */
    static FilerEvent decode(SubscribeMetadataResponseView view, String clientName) {
        EventNotification notification;
        ByteString encoded = view.getEventNotification();
        try {
            notification = EventNotification.parseFrom(encoded);
        } catch (InvalidProtocolBufferException e) {
            log.warn("subscription {}: undecodable event at ts_ns {} in {}: {}", clientName, view.getTsNs(),
                    view.getDirectory(), e.getMessage());
            notification = EventNotification.getDefaultInstance();
            encoded = null;
        }
        return new FilerEvent(SubscribeMetadataResponse.newBuilder().setDirectory(view.getDirectory())
                .setTsNs(view.getTsNs()).setEventNotification(notification).build(), encoded);
    }

    /** An event by content: where, and the notification as the filer encoded it. */
    private record EventKey(String directory, ByteString notification) {
    }

    /**
     * Whether an event is new. At the resume timestamp, one already met (by content) is a repeat, and after a restart
     * the first ones, already delivered before it, are skipped by count. An event older than one the same stream
     * already sent is out of order (several filers' logs merged, for instance): the resume position is a timestamp,
     * so it cannot be delivered without breaking exactly-once. It is counted and logged, never silently lost; an
     * older event at the start of a stream is history the filer sent again, already delivered.
     */
    private boolean accept(SubscribeMetadataResponseView event) {
        long ts = event.getTsNs();
        boolean behindStream = ts < streamHighTsNs;
        streamHighTsNs = Math.max(streamHighTsNs, ts);
        if (ts < resumeTsNs) {
            if (behindStream) {
                long n = outOfOrder.incrementAndGet();
                if (n == 1 || n % 1_000 == 0) {
                    log.warn("subscription {}: an event at ts_ns {} came after ts_ns {} and is skipped ({} so far): "
                            + "the filer's meta-log is not in timestamp order", options.clientName(), ts, resumeTsNs, n);
                }
            }
            return false;
        }
        EventKey key = new EventKey(event.getDirectory(), event.getEventNotification());
        if (ts == resumeTsNs) {
            if (!atResumeTs.add(key)) {
                repeats.incrementAndGet();
                return false;
            }
            if (toSkipAtResumeTs > 0) {
                toSkipAtResumeTs--;
                return false;
            }
            seenAtResumeTs++;
            return true;
        }
        resumeTsNs = ts;
        seenAtResumeTs = 1;
        toSkipAtResumeTs = 0;
        atResumeTs.clear();
        atResumeTs.add(key);
        return true;
    }

    private synchronized void ended(Status status) {
        current = null;
        if (state != State.RUNNING) {
            return;
        }
        if (status == null && options.untilNs() > 0) {
            state = State.COMPLETED;
            return;
        }
        if (status == null) {
            log.info("subscription {}: the filer ended the stream; reconnecting", options.clientName());
        } else if (cancelledForIdleness) {
            log.warn("subscription {}: no message for {}; reconnecting", options.clientName(), options.idleTimeout());
        } else if (SeaweedCallException.classify(status) == FailureKind.PERMANENT) {
            failure = new SeaweedCallException("SubscribeMetadata", status.asRuntimeException());
            state = State.FAILED;
            log.error("subscription {} failed: {}", options.clientName(), failure.getMessage());
            return;
        } else {
            log.warn("subscription {}: {}; reconnecting from ts_ns {}", options.clientName(), status, resumeTsNs);
        }
        reconnects.incrementAndGet();
        long delay = backoffMillis;
        backoffMillis = Math.min(backoffMillis * 2, options.maxBackoff().toMillis());
        scheduler.schedule(this::connect, delay, TimeUnit.MILLISECONDS);
    }

    /**
     * Cuts a stream that has gone silent, so the subscription reconnects. A stream asked for nothing (the buffer is
     * full: the consumer is slow, say committing) cannot send even a heartbeat, so it is not silent.
     */
    private synchronized void checkIdle() {
        Duration idle = options.idleTimeout();
        if (current != null && outstanding > 0 && System.nanoTime() - lastMessageNanos > idle.toNanos()) {
            cancelledForIdleness = true;
            current.cancel("no message within the idle timeout", null);
        }
    }

    @Override
    public void close() {
        ClientCallStreamObserver<SubscribeMetadataRequest> call;
        synchronized (this) {
            if (state == State.RUNNING) {
                state = State.CLOSED;
            }
            call = current;
        }
        if (call != null) {
            call.cancel("subscription closed", null);
        }
        scheduler.shutdownNow();
    }
}
