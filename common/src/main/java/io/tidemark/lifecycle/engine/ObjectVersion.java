package io.tidemark.lifecycle.engine;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One version of one key, as much of it as lifecycle rules look at.
 *
 * @param versionId        {@code null} in a never-versioned bucket, {@code "null"} for a null version
 * @param successorModTime when the next newer version or delete marker was created, which is when this
 *                         version became noncurrent; {@code null} for the current version
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

    /** When this version stopped being current: its successor's creation, or its own mtime when unknown. */
    public Instant noncurrentSince() {
        return successorModTime != null ? successorModTime : modTime;
    }
}
