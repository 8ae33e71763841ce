package io.tidemark.seaweed.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.tidemark.seaweed.pb.FilerViewProto.SubscribeMetadataResponseView;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import org.junit.jupiter.api.Test;

/** The filer response's wire view reads exactly what the message it shadows does. */
class WireViewTest {

    private static final EventNotification EVENT = EventNotification.newBuilder()
            .setNewEntry(Entry.newBuilder().setName("k").putExtended("X-Amz-Tagging-env", ByteString.copyFromUtf8("prod")))
            .setNewParentPath("/buckets/b").build();

    /** Same numbers and wire types, field by field; embedded messages are length-delimited like bytes. */
    private static void assertShadows(Descriptor view, Descriptor original) {
        for (FieldDescriptor field : view.getFields()) {
            FieldDescriptor shadowed = original.findFieldByNumber(field.getNumber());
            assertThat(shadowed).as("%s.%s", view.getName(), field.getName()).isNotNull();
            assertThat(shadowed.getName()).isEqualTo(field.getName());
            assertThat(shadowed.isRepeated()).isEqualTo(field.isRepeated());
            assertThat(shadowed.getLiteType().getWireType()).isEqualTo(field.getLiteType().getWireType());
        }
    }

    @Test
    void shouldShadowTheFieldsOfTheMessageItStandsFor() {
        assertShadows(SubscribeMetadataResponseView.getDescriptor(), SubscribeMetadataResponse.getDescriptor());
    }

    @Test
    void shouldReadAFilerResponseAndKeepTheEventsEncoding() throws Exception {
        SubscribeMetadataResponse response = SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b")
                .setTsNs(42).setEventNotification(EVENT).build();
        SubscribeMetadataResponseView view = SubscribeMetadataResponseView.parseFrom(response.toByteArray());
        FilerEvent event = MetadataSubscription.decode(view, "test");
        assertThat(event.response()).isEqualTo(response);
        assertThat(EventNotification.parseFrom(event.encodedNotification())).isEqualTo(EVENT);
    }

    @Test
    void shouldTellAHeartbeatFromAnEventWhoseNotificationIsEmpty() throws Exception {
        SubscribeMetadataResponse empty = SubscribeMetadataResponse.newBuilder().setTsNs(1)
                .setEventNotification(EventNotification.getDefaultInstance()).build();
        SubscribeMetadataResponse heartbeat = SubscribeMetadataResponse.newBuilder().setTsNs(1).build();
        assertThat(SubscribeMetadataResponseView.parseFrom(empty.toByteArray()).hasEventNotification()).isTrue();
        assertThat(SubscribeMetadataResponseView.parseFrom(heartbeat.toByteArray()).hasEventNotification()).isFalse();
    }

    @Test
    void shouldDeliverAnUndecodableEventEmptyAndWithoutBytesToForward() {
        SubscribeMetadataResponseView garbled = SubscribeMetadataResponseView.newBuilder().setDirectory("/buckets/b")
                .setTsNs(7).setEventNotification(ByteString.copyFrom(new byte[] {(byte) 0x0a, (byte) 0xff})).build();
        FilerEvent event = MetadataSubscription.decode(garbled, "test");
        assertThat(event.response().getTsNs()).isEqualTo(7);
        assertThat(event.response().getEventNotification()).isEqualTo(EventNotification.getDefaultInstance());
        assertThat(event.encodedNotification()).isNull();
    }
}
