package io.tidemark.lifecycle.hash;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Feeds tagged fields into SHA-256 the way SeaweedFS's Go code does: a one-byte tag, then either a
 * {@code binary.PutUvarint} length and the raw bytes, or a {@code binary.PutVarint} (zig-zag) integer.
 * The tag keeps one field's bytes from ever being read as another's.
 */
public final class HashWriter {

    private final MessageDigest digest;
    private final byte[] scratch = new byte[10];

    public HashWriter() {
        this.digest = sha256();
    }

    /** Never updated, only cloned: a clone skips the provider lookup that showed in the replay profile. */
    private static final MessageDigest PROTOTYPE = newSha256();

    public static MessageDigest sha256() {
        try {
            return (MessageDigest) PROTOTYPE.clone();
        } catch (CloneNotSupportedException e) {
            return newSha256();
        }
    }

    private static MessageDigest newSha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime must provide SHA-256", e);
        }
    }

    public HashWriter bytesField(int tag, byte[] value) {
        digest.update((byte) tag);
        unsigned(value.length);
        digest.update(value);
        return this;
    }

    public HashWriter stringField(int tag, String value) {
        return bytesField(tag, value.getBytes(StandardCharsets.UTF_8));
    }

    public HashWriter unsignedField(int tag, long value) {
        digest.update((byte) tag);
        unsigned(value);
        return this;
    }

    public HashWriter signedField(int tag, long value) {
        digest.update((byte) tag);
        unsigned((value << 1) ^ (value >> 63));
        return this;
    }

    public HashWriter boolField(int tag, boolean value) {
        digest.update((byte) tag);
        digest.update((byte) (value ? 1 : 0));
        return this;
    }

    public byte[] finish() {
        return digest.digest();
    }

    private void unsigned(long value) {
        int n = 0;
        long v = value;
        while ((v & ~0x7FL) != 0) {
            scratch[n++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        scratch[n++] = (byte) v;
        digest.update(scratch, 0, n);
    }
}
