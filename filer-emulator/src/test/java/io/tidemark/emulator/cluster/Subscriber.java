package io.tidemark.emulator.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** One open meta-log stream of a test: the events it delivered, one at a time, until it is closed. */
final class Subscriber implements ClientResponseObserver<SubscribeMetadataRequest, SubscribeMetadataResponse>,
        AutoCloseable {

    private final BlockingQueue<SubscribeMetadataResponse> received = new LinkedBlockingQueue<>();
    private final List<SubscribeMetadataResponse> taken = new ArrayList<>();
    private volatile ClientCallStreamObserver<SubscribeMetadataRequest> call;
    volatile Throwable error;

    @Override
    public void beforeStart(ClientCallStreamObserver<SubscribeMetadataRequest> requestStream) {
        call = requestStream;
    }

    @Override
    public void onNext(SubscribeMetadataResponse response) {
        if (response.hasEventNotification()) {
            received.add(response.toBuilder().clearEvents().build());
            received.addAll(response.getEventsList());
        }
    }

    @Override
    public void onError(Throwable t) {
        error = t;
    }

    @Override
    public void onCompleted() {
    }

    /** The next event, which must come within five seconds. */
    SubscribeMetadataResponse next() throws InterruptedException {
        SubscribeMetadataResponse event = received.poll(5, TimeUnit.SECONDS);
        assertThat(event).as("an event within five seconds (stream error: %s)", error).isNotNull();
        taken.add(event);
        return event;
    }

    /** Whether an event is waiting, after giving one {@code millis} to come. */
    boolean received(long millis) throws InterruptedException {
        SubscribeMetadataResponse event = received.poll(millis, TimeUnit.MILLISECONDS);
        if (event == null) {
            return false;
        }
        received.add(event);
        return true;
    }

    /** Every event up to and including the first for entry {@code name}. */
    List<String> namesUntil(String name) throws InterruptedException {
        List<String> names = new ArrayList<>();
        for (String last = ""; !last.equals(name); ) {
            last = FilerClusterTest.name(next());
            names.add(last);
        }
        return names;
    }

    /** Every event taken so far. */
    List<SubscribeMetadataResponse> taken() {
        return taken;
    }

    @Override
    public void close() {
        call.cancel("the test is done with it", null);
    }
}
