package io.tidemark.lifecycle.engine;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One version of one key, as much of it as lifecycle rules look at.
 *
 * @param versionId        {@code null} in a never-versioned bucket, {@code "null"} for a null version
 * @param successorModTime when this version became noncurrent: the noncurrent-since stamp the gateway writes on
 *                         demotion, else the creation of the next newer version or delete marker; {@code null}
 *                         for the current version, and when neither is known
 * @param numVersions      versions of the key, delete markers included
 * @param noncurrentIndex  0-based rank among the key's noncurrent versions, newest first; {@code null} for the
 *                         current version or when unknown
 */
public record ObjectVersion(
        String key,
        long size,
        Map<String, String> tags,
        Instant modTime,
        boolean isLatest,
        boolean isDeleteMarker,
        String versionId,
        Instant successorModTime,
        int numVersions,
        Integer noncurrentIndex) {

    public ObjectVersion {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(modTime, "modTime");
        tags = Map.copyOf(tags);
    }

    /** The only version of a key in an unversioned bucket. */
    public static ObjectVersion plain(String key, long size, Map<String, String> tags, Instant modTime) {
        return new ObjectVersion(key, size, tags, modTime, true, false, null, null, 1, null);
    }

    /**
     * When this version stopped being current, if known. Never the version's own mtime: a long-lived version
     * demoted today would otherwise count as noncurrent since its creation and expire at once.
     */
    public Optional<Instant> noncurrentSince() {
        return Optional.ofNullable(successorModTime);
    }
}
