package io.tidemark.replay;

import io.tidemark.messages.ObjectTask;
import io.tidemark.topics.JsonSerde;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/**
 * The timers store's value format: a version byte, then the fields in a fixed order (strings as a varint of their
 * UTF-8 length plus one, 0 for null; instants as seconds and nanos behind a presence byte). Every arm and every
 * firing goes through this codec; JSON with ISO-8601 instants was a large share of the cost of arming.
 *
 * <p>Timers written by earlier versions are JSON objects (their first byte is '{'); they are still read, so an
 * upgrade keeps the timers already in a changelog.
 */
final class TimerCodec implements Serde<ReplayTimer> {

    private static final byte V1 = 1;
    private static final byte JSON_OBJECT = '{';
    private static final JsonSerde<ReplayTimer> LEGACY = new JsonSerde<>(ReplayTimer.class);

    @Override
    public Serializer<ReplayTimer> serializer() {
        return (topic, timer) -> timer == null ? null : encode(timer);
    }

    @Override
    public Deserializer<ReplayTimer> deserializer() {
        return (topic, bytes) -> bytes == null ? null : read(bytes, topic);
    }

    /** A stored timer, in either format; a {@link SerializationException} when the bytes are neither. */
    static ReplayTimer read(byte[] bytes) {
        return read(bytes, TimerStore.TIMERS);
    }

    private static ReplayTimer read(byte[] bytes, String topic) {
        if (bytes.length > 0 && bytes[0] == JSON_OBJECT) {
            return LEGACY.deserializer().deserialize(topic, bytes);
        }
        try {
            return decode(bytes);
        } catch (BufferUnderflowException | IllegalArgumentException | ArithmeticException e) {
            throw new SerializationException("a timer on " + topic + " cannot be decoded: " + e, e);
        }
    }

    static byte[] encode(ReplayTimer t) {
        Writer w = new Writer();
        w.buf[w.len++] = V1;
        w.string(t.timerId());
        w.string(t.bucket());
        w.string(t.logicalKey());
        w.string(t.objectPath());
        w.string(t.versionId());
        w.string(t.kind());
        w.string(t.ruleId());
        w.string(t.ruleHash());
        w.instant(t.dueAt());
        ObjectTask.ExpectedIdentity identity = t.identity();
        if (identity == null) {
            w.flag(false);
        } else {
            w.flag(true);
            w.varlong(identity.mtimeNs());
            w.varlong(identity.size());
            w.string(identity.headFid());
            w.string(identity.extendedHash());
        }
        w.varlong(t.size());
        w.varlong(t.tags().size());
        t.tags().forEach((k, v) -> {
            w.string(k);
            w.string(v);
        });
        w.instant(t.modTime());
        w.instant(t.noncurrentSince());
        w.instant(t.protectedUntil());
        w.varlong(t.armedTsNs());
        return Arrays.copyOf(w.buf, w.len);
    }

    static ReplayTimer decode(byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes);
        byte version = in.get();
        if (version != V1) {
            throw new IllegalArgumentException("unknown timer format " + version);
        }
        String timerId = string(in);
        String bucket = string(in);
        String logicalKey = string(in);
        String objectPath = string(in);
        String versionId = string(in);
        String kind = string(in);
        String ruleId = string(in);
        String ruleHash = string(in);
        Instant dueAt = instant(in);
        ObjectTask.ExpectedIdentity identity = in.get() == 0 ? null
                : new ObjectTask.ExpectedIdentity(varlong(in), varlong(in), string(in), string(in));
        long size = varlong(in);
        int tagCount = Math.toIntExact(varlong(in));
        Map<String, String> tags = new LinkedHashMap<>();
        for (int i = 0; i < tagCount; i++) {
            tags.put(string(in), string(in));
        }
        Instant modTime = instant(in);
        Instant noncurrentSince = instant(in);
        Instant protectedUntil = instant(in);
        long armedTsNs = varlong(in);
        return new ReplayTimer(timerId, bucket, logicalKey, objectPath, versionId, kind, ruleId, ruleHash, dueAt,
                identity, size, tags, modTime, noncurrentSince, protectedUntil, armedTsNs);
    }

    private static String string(ByteBuffer in) {
        int length = Math.toIntExact(varlong(in)) - 1;
        if (length < 0) {
            return null;
        }
        if (length > in.remaining()) {
            throw new IllegalArgumentException("a string of " + length + " bytes with " + in.remaining() + " left");
        }
        String s = new String(in.array(), in.position(), length, StandardCharsets.UTF_8);
        in.position(in.position() + length);
        return s;
    }

    private static Instant instant(ByteBuffer in) {
        if (in.get() == 0) {
            return null;
        }
        return Instant.ofEpochSecond(varlong(in), varlong(in));
    }

    /** Unsigned LEB128 of the long's bits: a negative one (an instant before 1970) takes ten bytes but round-trips. */
    private static long varlong(ByteBuffer in) {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte b = in.get();
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IllegalArgumentException("a varint longer than ten bytes");
    }

    /** An append-only byte buffer that grows as needed. */
    private static final class Writer {

        private byte[] buf = new byte[256];
        private int len;

        private void ensure(int more) {
            if (len + more > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
            }
        }

        void flag(boolean present) {
            ensure(1);
            buf[len++] = (byte) (present ? 1 : 0);
        }

        void varlong(long value) {
            ensure(10);
            long v = value;
            while ((v & ~0x7FL) != 0) {
                buf[len++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[len++] = (byte) v;
        }

        void string(String s) {
            if (s == null) {
                varlong(0);
                return;
            }
            byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            varlong(utf8.length + 1L);
            ensure(utf8.length);
            System.arraycopy(utf8, 0, buf, len, utf8.length);
            len += utf8.length;
        }

        void instant(Instant instant) {
            flag(instant != null);
            if (instant != null) {
                varlong(instant.getEpochSecond());
                varlong(instant.getNano());
            }
        }
    }
}
