package io.tidemark.seaweed.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataRequest;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import io.tidemark.seaweed.pb.SeaweedFilerGrpc;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A filer whose meta-log is not in timestamp order (several filers aggregated, say). The subscription's resume
 * position is a timestamp, so an event older than one already delivered cannot be delivered without breaking
 * exactly-once; it must not vanish silently either.
 */
class MetadataSubscriptionOrderTest {

    private static SubscribeMetadataResponse event(long ts, String name) {
        return SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b").setTsNs(ts)
                .setEventNotification(EventNotification.newBuilder().setNewEntry(Entry.newBuilder().setName(name)))
                .build();
    }

    /** Streams the given events, then ends the stream (the subscription asks for them until a timestamp). */
    private static final class DisorderedFiler extends SeaweedFilerGrpc.SeaweedFilerImplBase {
        @Override
        public void subscribeMetadata(SubscribeMetadataRequest request,
                                      StreamObserver<SubscribeMetadataResponse> out) {
            for (SubscribeMetadataResponse e : List.of(event(10, "a"), event(20, "b"), event(15, "late"),
                    event(20, "c"), event(30, "d"))) {
                if (e.getTsNs() >= request.getSinceNs()) {
                    out.onNext(e);
                }
            }
            out.onCompleted();
        }
    }

    @Test
    void shouldCountAndSkipAnEventOlderThanOneAlreadyDelivered() throws Exception {
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .addService(new DisorderedFiler()).build().start();
        try (FilerClient client = FilerClient.connect("127.0.0.1:" + server.getPort(), GrpcTls.PLAINTEXT,
                Duration.ofSeconds(5));
             MetadataSubscription subscription = client.subscribe(SubscriptionOptions.from("t", "/buckets/", 0)
                     .until(30))) {
            List<String> names = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (!subscription.finished() && System.nanoTime() < deadline) {
                SubscribeMetadataResponse r = subscription.poll(Duration.ofMillis(100));
                if (r != null) {
                    names.add(r.getEventNotification().getNewEntry().getName());
                }
            }
            // Equal timestamps (b and c at 20) are delivered in order; only the one that goes back in time is not.
            assertThat(names).containsExactly("a", "b", "c", "d");
            assertThat(subscription.outOfOrder()).isEqualTo(1);
        } finally {
            server.shutdownNow();
        }
    }
}
