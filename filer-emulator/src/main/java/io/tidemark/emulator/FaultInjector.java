package io.tidemark.emulator;

import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.tidemark.seaweed.pb.FilerProto.ListEntriesRequest;
import io.tidemark.seaweed.pb.FilerProto.LookupDirectoryEntryRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteOutcome;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Knobs that make the emulator misbehave on purpose, settable at start and while it runs: a probability of
 * failing any RPC with UNAVAILABLE, a latency added to every RPC, calls of one RPC failed with any status code,
 * outcomes forced for chosen object paths, lookups of chosen names refused with a status of their own (a
 * permanent error for one entry, say), the gateway's own reads of an object failing inside
 * {@code LifecycleDelete}, and answers of chosen RPCs delivered late: read when the call is made, sent a while after
 * (a slow network or a paused client between the read and its use).
 */
public final class FaultInjector implements ServerInterceptor {

    /** A {@code LifecycleDelete} answer forced for one {@code bucket/objectPath}. */
    public record ForcedOutcome(LifecycleDeleteOutcome outcome, String reason) {
    }

    private volatile double unavailableProbability;
    private volatile Duration latency = Duration.ZERO;
    private final Map<String, ForcedOutcome> forced = new ConcurrentHashMap<>();
    private final Map<String, Status.Code> refusedLookups = new ConcurrentHashMap<>();
    private final Map<String, Failing> failing = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> failingReads = new ConcurrentHashMap<>();
    private volatile Late late;
    private final ScheduledExecutorService lateSender = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "emulator-late-answers");
        t.setDaemon(true);
        return t;
    });

    /** Answers of these RPCs about paths under {@code under} delivered {@code delay} after they were made. */
    private record Late(Set<String> rpcs, String under, Duration delay) {

        boolean covers(Object request) {
            String path;
            if (request instanceof ListEntriesRequest list) {
                path = list.getDirectory();
            } else if (request instanceof LookupDirectoryEntryRequest lookup) {
                path = lookup.getDirectory() + "/" + lookup.getName();
            } else {
                return under.isEmpty();
            }
            return path.startsWith(under);
        }
    }

    /** Calls of one RPC answered with a status: {@code remaining} more of them, or every one while negative. */
    private record Failing(Status.Code code, boolean forever, AtomicInteger remaining) {

        boolean take() {
            return forever || remaining.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
        }
    }

    /**
     * Makes the next {@code times} calls of an RPC (its bare name: {@code LifecycleDelete}, {@code ListEntries},
     * {@code LookupDirectoryEntry}, {@code SubscribeMetadata}...) fail with {@code code}; {@code times < 0} fails
     * every call until {@link #clearFailures}. Any status code, as a real server or proxy might answer.
     */
    public void fail(String rpc, Status.Code code, int times) {
        failing.put(rpc, new Failing(code, times < 0, new AtomicInteger(Math.max(0, times))));
    }

    /** How many of the failures asked for an RPC are left: 0 when none are, -1 when it fails every call. */
    public int failuresLeft(String rpc) {
        Failing failure = failing.get(rpc);
        return failure == null ? 0 : failure.forever() ? -1 : failure.remaining().get();
    }

    public void clearFailures() {
        failing.clear();
        failingReads.clear();
    }

    /**
     * Makes the gateway's next {@code times} reads of {@code bucket/objectPath} inside {@code LifecycleDelete} fail
     * (a filer timeout, say). Upstream wraps any such failure as "object not found" and answers NOOP_RESOLVED
     * NOT_FOUND, for an object that is still there.
     */
    public void failObjectReads(String bucket, String objectPath, int times) {
        failingReads.put(bucket + "/" + objectPath, new AtomicInteger(times));
    }

    /** Whether this read of an object fails; each call uses up one of the failures asked for. */
    public boolean objectReadFails(String bucket, String objectPath) {
        var left = failingReads.get(bucket + "/" + objectPath);
        return left != null && left.getAndUpdate(n -> n > 0 ? n - 1 : 0) > 0;
    }

    /** Makes every {@code LookupDirectoryEntry} of an entry called {@code name} fail with {@code code}. */
    public void refuseLookups(String name, Status.Code code) {
        refusedLookups.put(name, code);
    }

    public void setUnavailableProbability(double probability) {
        if (probability < 0 || probability > 1) {
            throw new IllegalArgumentException("probability must be between 0 and 1, not " + probability);
        }
        this.unavailableProbability = probability;
    }

    public double unavailableProbability() {
        return unavailableProbability;
    }

    /**
     * Delivers the answers of these RPCs (bare names, as {@link #fail}) {@code delay} after the server made them: the
     * entries a listing or lookup sends are the ones there were when it was called, whatever happens before they
     * arrive. Unlike {@link #setLatency}, which waits before the call is served, this makes stale answers.
     */
    public void answerLate(Set<String> rpcs, Duration delay) {
        answerLate(rpcs, "", delay);
    }

    /**
     * As {@link #answerLate(Set, Duration)}, for the listings and lookups of paths that start with {@code under} only
     * (a directory, or a key's path, which covers its {@code .versions} directory too).
     */
    public void answerLate(Set<String> rpcs, String under, Duration delay) {
        late = new Late(Set.copyOf(rpcs), under, delay);
    }

    /** Answers sent as they are made again (those held already still arrive late). */
    public void answerOnTime() {
        late = null;
    }

    public void setLatency(Duration latency) {
        if (latency.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative");
        }
        this.latency = latency;
    }

    public Duration latency() {
        return latency;
    }

    public void force(String bucket, String objectPath, LifecycleDeleteOutcome outcome, String reason) {
        forced.put(bucket + "/" + objectPath, new ForcedOutcome(outcome, reason));
    }

    public void clearForced(String bucket, String objectPath) {
        forced.remove(bucket + "/" + objectPath);
    }

    public void clearAll() {
        late = null;
        forced.clear();
        refusedLookups.clear();
        failing.clear();
        failingReads.clear();
        unavailableProbability = 0;
        latency = Duration.ZERO;
    }

    public Optional<ForcedOutcome> forcedOutcome(String bucket, String objectPath) {
        return Optional.ofNullable(forced.get(bucket + "/" + objectPath));
    }

    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                       ServerCallHandler<Q, R> next) {
        Duration delay = latency;
        if (!delay.isZero()) {
            try {
                Thread.sleep(delay.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Failing failure = failing.get(call.getMethodDescriptor().getBareMethodName());
        if (failure != null && failure.take()) {
            call.close(Status.fromCode(failure.code()).withDescription("injected " + failure.code()), new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
        if (unavailableProbability > 0 && ThreadLocalRandom.current().nextDouble() < unavailableProbability) {
            call.close(Status.UNAVAILABLE.withDescription("injected fault"), new Metadata());
            return new ServerCall.Listener<>() {
            };
        }
        Late lateNow = late;
        LateCall<Q, R> lateCall = lateNow != null
                && lateNow.rpcs().contains(call.getMethodDescriptor().getBareMethodName())
                ? new LateCall<>(call, lateNow.delay()) : null;
        ServerCall<Q, R> serving = lateCall != null ? lateCall : call;
        ServerCall.Listener<Q> listener = !refusedLookups.isEmpty() && call.getMethodDescriptor().getFullMethodName()
                .equals(SeaweedFilerGrpc.getLookupDirectoryEntryMethod().getFullMethodName())
                ? refusingLookups(serving, next.startCall(serving, headers)) : next.startCall(serving, headers);
        if (lateCall == null) {
            return listener;
        }
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(listener) {
            @Override
            public void onMessage(Q message) {
                // Decided before the server reads the request, so before it answers.
                lateCall.late = lateNow.covers(message);
                super.onMessage(message);
            }
        };
    }

    /**
     * A call whose messages and close, once its request is found {@link #late}, are kept as the server makes them and
     * sent together when the delay has passed, from one thread, in their order.
     */
    private final class LateCall<Q, R> extends ForwardingServerCall.SimpleForwardingServerCall<Q, R> {
        private final long dueNanos;
        private final List<R> held = new ArrayList<>();
        private volatile boolean late;

        LateCall(ServerCall<Q, R> call, Duration delay) {
            super(call);
            this.dueNanos = System.nanoTime() + delay.toNanos();
        }

        @Override
        public synchronized void sendMessage(R message) {
            if (late) {
                held.add(message);
            } else {
                super.sendMessage(message);
            }
        }

        @Override
        public void close(Status status, Metadata trailers) {
            if (!late) {
                super.close(status, trailers);
                return;
            }
            List<R> messages;
            synchronized (this) {
                messages = List.copyOf(held);
            }
            lateSender.schedule(() -> {
                try {
                    messages.forEach(delegate()::sendMessage);
                    delegate().close(status, trailers);
                } catch (RuntimeException e) {
                    // The client went away while its answer was held: nothing is left to send it to.
                }
            }, Math.max(0, dueNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    private <Q, R> ServerCall.Listener<Q> refusingLookups(ServerCall<Q, R> call, ServerCall.Listener<Q> delegate) {
        return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(delegate) {
            private boolean refused;

            @Override
            public void onMessage(Q message) {
                Status.Code code = message instanceof LookupDirectoryEntryRequest request
                        ? refusedLookups.get(request.getName()) : null;
                if (code == null) {
                    super.onMessage(message);
                    return;
                }
                refused = true;
                call.close(Status.fromCode(code).withDescription("injected refusal"), new Metadata());
            }

            @Override
            public void onHalfClose() {
                if (!refused) {
                    super.onHalfClose();
                }
            }
        };
    }
}
