package io.tidemark.emulator.s3;

import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Object writes and deletes under each versioning state, with the mutations in upstream's order and upstream's
 * quirks kept (see {@link S3Gateway}). Each holds the store's lock throughout, the lock the lifecycle delete
 * handler takes too, so what it reads of the pointer and the mutations it bases on that are never interleaved with
 * another writer's.
 */
final class VersionedWrites {

    private final FilerStore store;
    private final Buckets buckets;
    private final ObjectEntries entries;
    private final VersionIds versionIds;
    private final VersionsDirectory versionsDirectory;

    VersionedWrites(FilerStore store, Buckets buckets, ObjectEntries entries, VersionIds versionIds,
                    VersionsDirectory versionsDirectory) {
        this.store = store;
        this.buckets = buckets;
        this.entries = entries;
        this.versionIds = versionIds;
        this.versionsDirectory = versionsDirectory;
    }

    /**
     * @param etagOverride the ETag when the caller has one (a completed upload's), else null to derive it
     * @param chunks the object's data when it already exists (a completed upload's parts), else null for new data
     */
    String put(String bucket, String key, long size, Map<String, String> tags, Map<String, String> metadata,
               String etagOverride, List<FileChunk> chunks) {
        S3Gateway.ObjectPath p = buckets.objectPath(bucket, key);
        synchronized (store) {
            BucketVersioning versioning = buckets.versioning(bucket);
            switch (versioning) {
                case OFF -> {
                    FilerCall.run(() -> store.create(p.directory(), entries.object(p.name(), bucket, key, size, tags,
                            metadata, null, etagOverride, chunks), false));
                    return null;
                }
                case ENABLED -> {
                    String versionId = versionIds.next();
                    Entry version = entries.object(S3Layout.versionFileName(versionId), bucket, key, size, tags,
                            metadata, versionId, etagOverride, chunks);
                    putVersion(p, versionId, version, false);
                    return versionId;
                }
                default -> {
                    // Upstream's suspended write: the bare object, then (when the key has a .versions directory)
                    // the stamp on what the pointer named, the null-is-latest flag, and the removal of a version
                    // whose ID is "null" (a null delete marker; a marker with a real ID stays).
                    FilerCall.run(() -> store.create(p.directory(), entries.object(p.name(), bucket, key, size, tags,
                            metadata, S3Layout.NULL_VERSION_ID, etagOverride, chunks), false));
                    Optional<Entry> dir = versionsDirectory.find(p);
                    if (dir.isPresent()) {
                        versionsDirectory.stampPointedVersion(p, dir.get(), "");
                        versionsDirectory.pointToNullVersion(p);
                        store.list(p.versionsDirectory(), "", "", false, 1000).stream()
                                .filter(e -> S3Entries.text(e, S3Layout.VERSION_ID).orElse("")
                                        .equals(S3Layout.NULL_VERSION_ID))
                                .findFirst().ifPresent(e -> deleteIfPresent(p.versionsDirectory(), e.getName()));
                    }
                    return S3Layout.NULL_VERSION_ID;
                }
            }
        }
    }

    String delete(String bucket, String key) {
        S3Gateway.ObjectPath p = buckets.objectPath(bucket, key);
        synchronized (store) {
            BucketVersioning versioning = buckets.versioning(bucket);
            if (versioning == BucketVersioning.OFF) {
                deleteIfPresent(p.directory(), p.name());
                return null;
            }
            if (versioning == BucketVersioning.ENABLED) {
                return placeDeleteMarker(bucket, key);
            }
            deleteBareIfPresent(p);
            putVersion(p, S3Layout.NULL_VERSION_ID, entries.deleteMarker(S3Layout.NULL_VERSION_ID), true);
            return S3Layout.NULL_VERSION_ID;
        }
    }

    String placeDeleteMarker(String bucket, String key) {
        S3Gateway.ObjectPath p = buckets.objectPath(bucket, key);
        synchronized (store) {
            String markerId = versionIds.next();
            putVersion(p, markerId, entries.deleteMarker(markerId), true);
            return markerId;
        }
    }

    boolean deleteBareIfPresent(S3Gateway.ObjectPath p) {
        synchronized (store) {
            if (store.lookup(p.directory(), p.name()).filter(e -> !e.getIsDirectory()).isEmpty()) {
                return false;
            }
            deleteIfPresent(p.directory(), p.name());
            return true;
        }
    }

    boolean deleteVersion(String bucket, String key, String versionId) {
        S3Gateway.ObjectPath p = buckets.objectPath(bucket, key);
        synchronized (store) {
            if (versionId.equals(S3Layout.NULL_VERSION_ID)) {
                return deleteBareIfPresent(p);
            }
            String fileName = S3Layout.versionFileName(versionId);
            Optional<Entry> dir = versionsDirectory.find(p);
            if (dir.isEmpty() || store.lookup(p.versionsDirectory(), fileName).isEmpty()) {
                return false;
            }
            boolean latest = S3Entries.text(dir.get(), S3Layout.LATEST_VERSION_ID).orElse("").equals(versionId);
            boolean singleton = false;
            if (latest) {
                Optional<Entry> next = store.list(p.versionsDirectory(), S3Layout.VERSION_FILE_PREFIX, "", false, 0)
                        .stream()
                        .filter(e -> !e.getIsDirectory() && !e.getName().equals(fileName))
                        .min(Comparator.comparing(VersionIds::of, VersionIds::compare));
                if (next.isPresent()) {
                    versionsDirectory.pointTo(p, VersionIds.of(next.get()), next.get(),
                            S3Entries.isDeleteMarker(next.get()));
                } else {
                    singleton = true;
                    versionsDirectory.clearPointer(p);
                }
            }
            FilerCall.run(() -> store.delete(p.versionsDirectory(), fileName, false, true, 0));
            if (singleton) {
                deleteIfPresent(p.directory(), S3Layout.versionsDirectoryName(p.name()));
            }
            return true;
        }
    }

    /** A version file in {@code .versions}, the stamp on what the pointer named before, then the pointer. */
    private void putVersion(S3Gateway.ObjectPath p, String versionId, Entry version, boolean marker) {
        Optional<Entry> before = versionsDirectory.find(p);
        FilerCall.run(() -> store.create(p.versionsDirectory(), version, false));
        before.ifPresent(dir -> versionsDirectory.stampPointedVersion(p, dir, version.getName()));
        versionsDirectory.pointTo(p, versionId, version, marker);
    }

    private void deleteIfPresent(String directory, String name) {
        FilerCall.run(() -> store.delete(directory, name, true, true, 0));
    }
}
