package io.tidemark.seaweed;

import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * What the S3 gateway's extended attributes say about one filer entry — its tags, version, delete marker, lock
 * and noncurrent stamp — read the same way by every part of the pipeline that looks at entries (the replay timers
 * and the walker).
 */
public final class S3Entries {

    private S3Entries() {
    }

    public static Map<String, String> tags(Entry entry) {
        Map<String, String> tags = new HashMap<>();
        entry.getExtendedMap().forEach((k, v) -> {
            if (k.startsWith(S3Layout.TAG_PREFIX)) {
                tags.put(k.substring(S3Layout.TAG_PREFIX.length()), v.toStringUtf8());
            }
        });
        return tags;
    }

    /** An extended attribute as UTF-8 text, if the entry has it with a value (an empty one counts as absent). */
    public static Optional<String> text(Entry entry, String name) {
        var value = entry.getExtendedMap().get(name);
        return value == null || value.isEmpty() ? Optional.empty() : Optional.of(value.toStringUtf8());
    }

    public static Instant modTime(Entry entry) {
        return Instant.ofEpochSecond(entry.getAttributes().getMtime(), entry.getAttributes().getMtimeNs());
    }

    public static boolean isDeleteMarker(Entry entry) {
        var marker = entry.getExtendedMap().get(S3Layout.DELETE_MARKER);
        return marker != null && S3Layout.flag(marker.toStringUtf8());
    }

    /**
     * The version an entry holds: the name's suffix for a {@code v_<id>} file in a {@code .versions} directory,
     * else the stamped version ID ({@code "null"} for an explicit null version), else empty.
     */
    public static String versionId(Entry entry, boolean versionFile) {
        if (versionFile) {
            return S3Layout.versionIdOfFileName(entry.getName());
        }
        var stamped = entry.getExtendedMap().get(S3Layout.VERSION_ID);
        return stamped == null ? "" : stamped.toStringUtf8();
    }

    /** When the gateway demoted this version, from its noncurrent-since stamp; empty when unstamped or unreadable. */
    public static Optional<Instant> noncurrentSince(Entry entry) {
        var stamp = entry.getExtendedMap().get(S3Layout.NONCURRENT_SINCE_NS);
        if (stamp == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(EpochNanos.toInstant(Long.parseLong(stamp.toStringUtf8().trim())));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * Object lock as the entry carries it, whatever the bucket's flag says (the gateway checks locks only in
     * buckets with object lock enabled): a legal hold protects until lifted, a retention until its date. An
     * unreadable retention date protects for ever, as the gateway treats it. {@code null} when unprotected.
     */
    public static Instant protectedUntil(Entry entry) {
        var hold = entry.getExtendedMap().get(S3Layout.LEGAL_HOLD);
        if (hold != null && hold.toStringUtf8().equalsIgnoreCase("ON")) {
            return Instant.MAX;
        }
        var until = entry.getExtendedMap().get(S3Layout.RETAIN_UNTIL);
        if (until == null || until.isEmpty()) {
            return null;
        }
        try {
            return Instant.ofEpochSecond(Long.parseLong(until.toStringUtf8().trim()));
        } catch (NumberFormatException e) {
            return Instant.MAX;
        }
    }

    /** Whether the entry's lock still protects it at {@code now}. */
    public static boolean locked(Entry entry, Instant now) {
        Instant until = protectedUntil(entry);
        return until != null && until.isAfter(now);
    }
}
