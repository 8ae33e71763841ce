package io.tidemark.objectprocessor;

import io.github.resilience4j.core.IntervalFunction;
import io.github.resilience4j.ratelimiter.RateLimiter;
import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.retry.Retry;
import io.github.resilience4j.retry.RetryConfig;
import io.tidemark.seaweed.client.FailureKind;
import io.tidemark.seaweed.client.LifecycleDeleteClient;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteRequest;
import io.tidemark.seaweed.pb.S3LifecycleProto.LifecycleDeleteResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * Makes {@code LifecycleDelete} calls without blocking: each attempt first takes a permit from this instance's share
 * of the group's rate, and an attempt that fails in transport (UNAVAILABLE, RESOURCE_EXHAUSTED, a deadline) is
 * repeated with capped, jittered exponential backoff until the gateway answers. The answer itself, whatever it is,
 * is the caller's; so is a call the server failed on or refused.
 */
final class DeleteCaller {

    /** Longest a permit may be reserved ahead; far beyond what a bounded in-flight window ever queues. */
    private static final Duration RESERVATION_LIMIT = Duration.ofDays(1);

    private final LifecycleDeleteClient client;
    private final ScheduledExecutorService scheduler;
    private final ObjectProcessorMetrics metrics;
    private final Retry transportRetry;
    private final BiConsumer<LifecycleDeleteResponse, Throwable> observer;
    private final AtomicReference<RateLimiter> limiter = new AtomicReference<>();
    private volatile double rate;

    DeleteCaller(LifecycleDeleteClient client, ScheduledExecutorService scheduler, ObjectProcessorSettings settings,
                 ObjectProcessorMetrics metrics) {
        this(client, scheduler, settings, metrics, (response, error) -> { });
    }

    /** @param observer told of every call's answer or failure (the cluster check learns the gateway's state from it) */
    DeleteCaller(LifecycleDeleteClient client, ScheduledExecutorService scheduler, ObjectProcessorSettings settings,
                 ObjectProcessorMetrics metrics, BiConsumer<LifecycleDeleteResponse, Throwable> observer) {
        this.client = client;
        this.observer = observer;
        this.scheduler = scheduler;
        this.metrics = metrics;
        this.transportRetry = Retry.of("lifecycle-delete", RetryConfig.custom()
                .maxAttempts(Integer.MAX_VALUE)
                .intervalFunction(IntervalFunction.ofExponentialRandomBackoff(settings.transportBackoffInitial(), 2.0,
                        0.5, settings.transportBackoffMax()))
                .retryOnException(DeleteCaller::isTransient)
                .build());
        transportRetry.getEventPublisher().onRetry(e -> metrics.transportRetry());
    }

    /** Sets this instance's rate in calls per second; 0 lifts the limit. */
    void rate(double perSecond) {
        rate = perSecond;
        limiter.set(perSecond <= 0 ? null : RateLimiter.of("lifecycle-delete", RateLimiterConfig.custom()
                // One permit per period of 1/rate: an even pace with no burst, so a share holds over short windows.
                .limitRefreshPeriod(Duration.ofNanos(Math.max(1_000L, Math.round(1e9 / perSecond))))
                .limitForPeriod(1)
                .timeoutDuration(RESERVATION_LIMIT)
                .build()));
        metrics.rate(perSecond);
    }

    double rate() {
        return rate;
    }

    /**
     * One try at the gateway, made at once: no permit is waited for and no transport failure repeated here. The
     * caller repeats the whole attempt — permit, checks, call — with {@link #untilAnswered}, so that what was checked
     * before a call is never older than that call (a call retried for minutes after one check would act on rules
     * that may have changed meanwhile).
     */
    CompletableFuture<LifecycleDeleteResponse> callOnce(LifecycleDeleteRequest request) {
        return timed(request);
    }

    /** Any SeaweedFS call made with the same patience: transport failures repeated with backoff until it is answered. */
    <T> CompletableFuture<T> untilAnswered(Supplier<CompletionStage<T>> call) {
        return Retry.decorateCompletionStage(transportRetry, scheduler, call).get().toCompletableFuture();
    }

    private CompletableFuture<LifecycleDeleteResponse> timed(LifecycleDeleteRequest request) {
        long began = System.nanoTime();
        return client.deleteAsync(request).whenComplete((response, error) -> {
            metrics.callLatency(System.nanoTime() - began, error);
            observer.accept(response, error);
        });
    }

    /** Completes when the rate limit lets one more call go (at once when there is no limit). */
    CompletableFuture<Void> permit() {
        RateLimiter current = limiter.get();
        if (current == null) {
            return CompletableFuture.completedFuture(null);
        }
        long waitNanos = current.reservePermission();
        if (waitNanos <= 0) {
            return CompletableFuture.completedFuture(null);
        }
        metrics.rateLimitWait(waitNanos);
        CompletableFuture<Void> permitted = new CompletableFuture<>();
        scheduler.schedule(() -> permitted.complete(null), waitNanos, TimeUnit.NANOSECONDS);
        return permitted;
    }

    private static boolean isTransient(Throwable error) {
        return cause(error) instanceof SeaweedCallException e && e.kind() == FailureKind.TRANSIENT;
    }

    /** The failure a call's future ended with, unwrapped from the completion machinery. */
    static Throwable cause(Throwable error) {
        Throwable t = error;
        while (t instanceof CompletionException && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
