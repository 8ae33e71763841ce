package io.tidemark.topics;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** Protobuf for one message type. */
public final class ProtobufSerde<T extends MessageLite> implements Serde<T> {

    private final Parser<T> parser;
    private final String typeName;

    public ProtobufSerde(Parser<T> parser, String typeName) {
        this.parser = parser;
        this.typeName = typeName;
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> value == null ? null : value.toByteArray();
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return parser.parseFrom(bytes);
            } catch (InvalidProtocolBufferException e) {
                throw new SerializationException("a record on " + topic + " is not a valid " + typeName, e);
            }
        };
    }
}
