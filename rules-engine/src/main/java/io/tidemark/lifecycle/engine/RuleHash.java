package io.tidemark.lifecycle.engine;

import io.tidemark.lifecycle.hash.GoTime;
import io.tidemark.lifecycle.hash.HashWriter;
import io.tidemark.lifecycle.hash.Utf8Order;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The 8-byte content hash SeaweedFS gives a lifecycle rule. It identifies a rule by what it matches and
 * does, not by its ID or status, so renaming or disabling a rule keeps its identity while any change to
 * the filter or to an action's days produces a new one.
 */
public final class RuleHash implements Comparable<RuleHash> {

    public static final int LENGTH = 8;

    private final byte[] bytes;

    private RuleHash(byte[] bytes) {
        this.bytes = bytes;
    }

    public static RuleHash of(byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new IllegalArgumentException("a rule hash is " + LENGTH + " bytes, got " + bytes.length);
        }
        return new RuleHash(bytes.clone());
    }

    public static RuleHash fromHex(String hex) {
        return of(HexFormat.of().parseHex(hex));
    }

    /** Computes the hash of one rule in SeaweedFS's flat view. */
    public static RuleHash compute(CanonicalRule rule) {
        HashWriter w = new HashWriter().stringField(0x01, rule.prefix());
        var keys = rule.tags().keySet().stream().sorted(Utf8Order.STRINGS).toList();
        w.unsignedField(0x02, keys.size());
        for (String key : keys) {
            w.stringField(0x03, key).stringField(0x04, rule.tags().get(key));
        }
        w.signedField(0x05, rule.sizeGreaterThan())
                .signedField(0x06, rule.sizeLessThan())
                .signedField(0x10, rule.expirationDays())
                .stringField(0x11, GoTime.rfc3339Nano(rule.expirationDate()))
                .boolField(0x12, rule.expiredObjectDeleteMarker())
                .signedField(0x13, rule.noncurrentDays())
                .signedField(0x14, rule.newerNoncurrentVersions())
                .signedField(0x15, rule.abortMultipartDays());
        if (rule.zeroSizeFloor()) {
            w.boolField(0x07, true);
        }
        return new RuleHash(Arrays.copyOf(w.finish(), LENGTH));
    }

    public byte[] toBytes() {
        return bytes.clone();
    }

    public String toHex() {
        return HexFormat.of().formatHex(bytes);
    }

    @Override
    public int compareTo(RuleHash other) {
        return Arrays.compareUnsigned(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RuleHash other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return toHex();
    }
}
