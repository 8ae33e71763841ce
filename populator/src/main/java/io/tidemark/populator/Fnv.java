package io.tidemark.populator;

import com.google.protobuf.ByteString;
import java.nio.charset.StandardCharsets;

/** 64-bit FNV-1a, for digests of events and entries held in memory by the several-filer merge. */
final class Fnv {

    static final long START = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private Fnv() {
    }

    static long bytes(long h, byte b) {
        return (h ^ (b & 0xff)) * PRIME;
    }

    static long bytes(long h, ByteString bytes) {
        for (int i = 0; i < bytes.size(); i++) {
            h = (h ^ (bytes.byteAt(i) & 0xff)) * PRIME;
        }
        return longValue(h, bytes.size());
    }

    static long string(long h, String s) {
        for (byte b : s.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * PRIME;
        }
        return (h ^ 0xff) * PRIME;
    }

    /** A digest as held where 0 stands for none: 0 is taken as 1 (one in 2^64 more look-alikes). */
    static long nonZero(long digest) {
        return digest == 0 ? 1 : digest;
    }

    static long longValue(long h, long v) {
        for (int i = 0; i < 8; i++) {
            h = (h ^ ((v >>> (8 * i)) & 0xff)) * PRIME;
        }
        return h;
    }
}
