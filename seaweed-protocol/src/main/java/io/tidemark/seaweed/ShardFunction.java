package io.tidemark.seaweed;

import io.tidemark.lifecycle.hash.HashWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;

/**
 * Maps an object to its shard: the top {@code bits} bits of SHA-256({@code bucket + "/" + logicalKey}). With
 * the default 4 bits this is SeaweedFS's {@code sha256(...)[0] >> 4}. Every event and task of one object
 * lands in the same shard, which is also its Kafka partition.
 */
public final class ShardFunction {

    public static final int DEFAULT_BITS = 4;
    public static final int MAX_BITS = 16;

    /** One digest per thread: looking a digest up costs more than hashing a short key. */
    private static final ThreadLocal<MessageDigest> DIGEST = ThreadLocal.withInitial(HashWriter::sha256);

    private final int bits;

    private ShardFunction(int bits) {
        this.bits = bits;
    }

    public static ShardFunction withBits(int bits) {
        if (bits < 0 || bits > MAX_BITS) {
            throw new IllegalArgumentException("shard.bits must be between 0 and " + MAX_BITS + ", got " + bits);
        }
        return new ShardFunction(bits);
    }

    public static ShardFunction standard() {
        return withBits(DEFAULT_BITS);
    }

    public int bits() {
        return bits;
    }

    /** The number of shards, and so the partition count of the sharded topics. */
    public int shardCount() {
        return 1 << bits;
    }

    public int shardOf(String bucket, String logicalKey) {
        if (bits == 0) {
            return 0;
        }
        MessageDigest digest = DIGEST.get();
        digest.reset();
        digest.update(bucket.getBytes(StandardCharsets.UTF_8));
        digest.update((byte) '/');
        byte[] d = digest.digest(logicalKey.getBytes(StandardCharsets.UTF_8));
        int top = ((d[0] & 0xFF) << 24) | ((d[1] & 0xFF) << 16) | ((d[2] & 0xFF) << 8) | (d[3] & 0xFF);
        return top >>> (Integer.SIZE - bits);
    }
}
