package io.tidemark.topics;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** JSON for one record type. Instants are ISO-8601 strings; unknown fields are tolerated, for rolling upgrades. */
public final class JsonSerde<T> implements Serde<T> {

    static final ObjectMapper MAPPER = new ObjectMapper()
            .registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final Class<T> type;
    /** Bound once to the type: {@code ObjectMapper.writeValueAsBytes} looks the serializer up on every call. */
    private final ObjectWriter writer;
    private final ObjectReader reader;

    public JsonSerde(Class<T> type) {
        this.type = type;
        this.writer = MAPPER.writerFor(type);
        this.reader = MAPPER.readerFor(type);
    }

    @Override
    public Serializer<T> serializer() {
        return (topic, value) -> {
            if (value == null) {
                return null;
            }
            try {
                return writer.writeValueAsBytes(value);
            } catch (IOException e) {
                throw new SerializationException("cannot write " + type.getSimpleName() + " for " + topic, e);
            }
        };
    }

    @Override
    public Deserializer<T> deserializer() {
        return (topic, bytes) -> {
            if (bytes == null) {
                return null;
            }
            try {
                return reader.readValue(bytes);
            } catch (IOException e) {
                throw new SerializationException("a record on " + topic + " is not a valid " + type.getSimpleName()
                        + ": " + e.getMessage(), e);
            }
        };
    }
}
