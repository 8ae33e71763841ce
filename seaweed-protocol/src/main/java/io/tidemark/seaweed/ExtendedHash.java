package io.tidemark.seaweed;

import io.tidemark.lifecycle.hash.HashWriter;
import io.tidemark.lifecycle.hash.Utf8Order;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;

/**
 * The fingerprint of an entry's extended attributes used in the identity CAS of {@code LifecycleDelete}.
 * Both sides of the CAS must produce the same bytes, so the layout follows SeaweedFS exactly: keys in UTF-8
 * byte order, each key and value preceded by its decimal byte length and a colon. An empty map has an
 * empty fingerprint rather than the hash of nothing.
 */
public final class ExtendedHash {

    private static final byte[] EMPTY = new byte[0];

    private ExtendedHash() {
    }

    public static byte[] of(Map<String, byte[]> extended) {
        if (extended.isEmpty()) {
            return EMPTY;
        }
        MessageDigest digest = HashWriter.sha256();
        extended.keySet().stream().sorted(Utf8Order.STRINGS).forEach(key -> {
            byte[] k = key.getBytes(StandardCharsets.UTF_8);
            byte[] v = extended.get(key);
            digest.update(lengthPrefix(k.length));
            digest.update(k);
            digest.update(lengthPrefix(v.length));
            digest.update(v);
        });
        return digest.digest();
    }

    private static byte[] lengthPrefix(int length) {
        return (length + ":").getBytes(StandardCharsets.US_ASCII);
    }
}
