package io.tidemark.seaweed.client;

import com.google.protobuf.ByteString;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;

/**
 * One meta-log event as a subscription delivers it: decoded, and as the filer encoded its event notification, so
 * a consumer that forwards the event can write those bytes instead of encoding it again.
 */
public record FilerEvent(SubscribeMetadataResponse response, ByteString encodedNotification) {
}
