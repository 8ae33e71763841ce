package io.tidemark.emulator.s3;

import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerNode;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The S3 gateway's side of SeaweedFS, reduced to what lifecycle cares about: it writes buckets, objects,
 * versions, delete markers, tags, locks and multipart uploads into the filer exactly in the gateway's layout,
 * in the same order of filer mutations, so the meta-log carries the same event sequence a real gateway
 * produces. For a versioned write that is: the version file, the noncurrent-since stamp on the version the latest
 * pointer named, then the pointer flip on the {@code .versions} directory. Upstream's quirks are kept (each is in
 * docs/filer-emulator.md): only a file the pointer names is ever stamped, so a bare null version demoted by a new
 * version gets no stamp; "null" is looked up at the bare path only; deleting the latest version repoints by
 * version-ID order among the {@code .versions} files before the file goes.
 */
public final class S3Gateway {

    private final FilerStore store;
    private final Buckets buckets;
    private final VersionedWrites writes;
    private final ObjectVersions versions;
    private final VersionUpdates updates;
    private final MultipartUploads uploads;
    /** Which filer records the events of the next operation. */
    private final Supplier<FilerNode> recorder;

    /** A gateway that spreads its operations over the store's filers, one operation after another (round robin). */
    public S3Gateway(FilerStore store, String bucketsDirectory) {
        this.store = store;
        this.recorder = new FilerRotation(store);
        Clock clock = store.clock();
        // One generator for the whole gateway, so neither version IDs nor chunk file keys repeat.
        VersionIds versionIds = new VersionIds(clock);
        ObjectEntries entries = new ObjectEntries(clock, versionIds);
        VersionsDirectory versionsDirectory = new VersionsDirectory(store, clock);
        this.buckets = new Buckets(store, FilerPaths.normalize(bucketsDirectory), clock);
        this.writes = new VersionedWrites(store, buckets, entries, versionIds, versionsDirectory);
        this.versions = new ObjectVersions(store, buckets, versionsDirectory);
        this.updates = new VersionUpdates(store, buckets, versions);
        this.uploads = new MultipartUploads(store, clock, buckets, entries, writes);
    }

    private S3Gateway(S3Gateway shared, Supplier<FilerNode> recorder) {
        this.store = shared.store;
        this.buckets = shared.buckets;
        this.writes = shared.writes;
        this.versions = shared.versions;
        this.updates = shared.updates;
        this.uploads = shared.uploads;
        this.recorder = recorder;
    }

    /** This gateway with every operation going through {@code filer}, whose log records its events. */
    public S3Gateway via(FilerNode filer) {
        return new S3Gateway(this, () -> filer);
    }

    /** Runs one operation through one filer: all of its filer mutations are recorded in that filer's log. */
    private <T> T written(Supplier<T> operation) {
        return store.through(recorder.get(), operation::get);
    }

    private void write(Runnable operation) {
        store.through(recorder.get(), () -> {
            operation.run();
            return null;
        });
    }

    public String bucketsDirectory() {
        return buckets.bucketsDirectory();
    }

    public FilerStore store() {
        return store;
    }

    // ---- buckets

    public void createBucket(String bucket, boolean objectLock) {
        write(() -> buckets.create(bucket, objectLock));
    }

    /** Removes a bucket and everything in it. */
    public void deleteBucket(String bucket) {
        write(() -> buckets.delete(bucket));
    }

    public void setVersioning(String bucket, BucketVersioning versioning) {
        write(() -> buckets.setVersioning(bucket, versioning));
    }

    public BucketVersioning versioning(String bucket) {
        return buckets.versioning(bucket);
    }

    public boolean objectLocked(String bucket) {
        return buckets.objectLocked(bucket);
    }

    public boolean bucketExists(String bucket) {
        return buckets.exists(bucket);
    }

    /**
     * Stores a lifecycle configuration after checking it as SeaweedFS's gateway does: S3's checks, except that a
     * NewerNoncurrentVersions without NoncurrentDays is accepted.
     */
    public void putLifecycle(String bucket, String xml) {
        write(() -> buckets.putLifecycle(bucket, xml));
    }

    /** Stores lifecycle XML as given, valid or not, as a write behind the gateway's back would. */
    public void putLifecycleUnchecked(String bucket, String xml) {
        write(() -> buckets.putLifecycleUnchecked(bucket, xml));
    }

    public void deleteLifecycle(String bucket) {
        write(() -> buckets.deleteLifecycle(bucket));
    }

    // ---- objects

    /**
     * Writes an object. Returns the new version's ID: a generated one when versioning is enabled, "null" when
     * suspended, {@code null} when the bucket was never versioned.
     */
    public String putObject(String bucket, String key, long size, Map<String, String> tags,
                            Map<String, String> metadata) {
        return written(() -> writes.put(bucket, key, size, tags, metadata, null, null));
    }

    /**
     * Deletes an object without a version ID: permanently when never versioned, otherwise by placing a delete
     * marker on top (a null marker when suspended, which also removes the null version). Returns the marker's
     * version ID, or {@code null}.
     */
    public String deleteObject(String bucket, String key) {
        return written(() -> writes.delete(bucket, key));
    }

    /**
     * Puts a delete marker with a new version ID on top of a key, whatever the bucket's versioning: what an Enabled
     * bucket's delete does, and what upstream's lifecycle expiration does in a Suspended bucket too (after deleting
     * the null version), so such a marker is not removed by a later suspended write the way a "null" one is.
     */
    public String placeDeleteMarker(String bucket, String key) {
        return written(() -> writes.placeDeleteMarker(bucket, key));
    }

    /** Deletes the bare null version of a key, if there is one; returns whether there was. */
    public boolean deleteBareIfPresent(ObjectPath p) {
        return written(() -> writes.deleteBareIfPresent(p));
    }

    /**
     * Permanently deletes one version, as upstream's off-ring path does. Version "null" is the bare object only.
     * Any other version is a file in {@code .versions}: when the pointer names it, the pointer first moves to the
     * remaining file first in version-ID order ("null" last; the bare null version is never considered), or is
     * cleared when none remains; then the file goes, and the emptied directory after it.
     */
    public boolean deleteVersion(String bucket, String key, String versionId) {
        return written(() -> writes.deleteVersion(bucket, key, versionId));
    }

    /** Every version of a key, newest first (by modification time, then by version file name). */
    public List<ObjectVersionInfo> versions(String bucket, String key) {
        return versions.all(bucket, key);
    }

    /** The current version of a key (possibly a delete marker). */
    public Optional<ObjectVersionInfo> latest(String bucket, String key) {
        return versions.latest(bucket, key);
    }

    /**
     * One version: {@code null} for the latest, "null" for the null version, or a version ID. As upstream, "null" is
     * the bare object only: a null delete marker in {@code .versions} is listed but cannot be addressed.
     */
    public Optional<ObjectVersionInfo> version(String bucket, String key, String versionId) {
        return versions.find(bucket, key, versionId);
    }

    public void putTags(String bucket, String key, String versionId, Map<String, String> tags) {
        write(() -> updates.putTags(bucket, key, versionId, tags));
    }

    public void putLegalHold(String bucket, String key, String versionId, boolean on) {
        write(() -> updates.putLegalHold(bucket, key, versionId, on));
    }

    public void putRetention(String bucket, String key, String versionId, String mode, Instant until) {
        write(() -> updates.putRetention(bucket, key, versionId, mode, until));
    }

    /** Sets an entry's modification time, as SeaweedFS's tests do to age objects. */
    public void backdate(String bucket, String key, String versionId, Instant mtime) {
        write(() -> updates.backdate(bucket, key, versionId, mtime));
    }

    /** Changes an entry behind the pipeline's back (a new extended attribute), so its identity no longer matches. */
    public void drift(String bucket, String key, String versionId) {
        write(() -> updates.drift(bucket, key, versionId));
    }

    // ---- multipart uploads

    public String createUpload(String bucket, String key) {
        return written(() -> uploads.create(bucket, key));
    }

    public void uploadPart(String bucket, String uploadId, int partNumber, long size) {
        write(() -> uploads.uploadPart(bucket, uploadId, partNumber, size));
    }

    /**
     * Assembles the parts into the object — their chunks become the object's, as upstream's completion moves them
     * (no data is copied) — and removes the upload directory without its data. Returns the object's version ID.
     */
    public String completeUpload(String bucket, String uploadId) {
        return written(() -> uploads.complete(bucket, uploadId));
    }

    /**
     * Makes completions leave {@code .uploads/<id>} behind, parts and all, as upstream does when its removal fails
     * (it only logs; SeaweedFS issue #10663): the leftover shares its chunks with the completed object, and an abort
     * of it, which deletes with the data, destroys the object's.
     */
    public void setCompletionLeavesUpload(boolean leaves) {
        uploads.setCompletionLeavesUpload(leaves);
    }

    public void abortUpload(String bucket, String uploadId) {
        write(() -> uploads.abort(bucket, uploadId));
    }

    public void backdateUpload(String bucket, String uploadId, Instant initiated) {
        write(() -> uploads.backdate(bucket, uploadId, initiated));
    }

    public String uploadsDirectory(String bucket) {
        return uploads.uploadsDirectory(bucket);
    }

    public String bucketDirectory(String bucket) {
        return buckets.bucketDirectory(bucket);
    }

    // ---- layout

    /** Where an object's entries live: the directory, its own name, and its versions directory. */
    public ObjectPath path(String bucket, String key) {
        return buckets.objectPath(bucket, key);
    }

    /** An object's filer locations. */
    public record ObjectPath(String directory, String name) {
        public String bare() {
            return FilerPaths.join(directory, name);
        }

        public String versionsDirectory() {
            return FilerPaths.join(directory, S3Layout.versionsDirectoryName(name));
        }
    }

    static Optional<String> text(Entry e, String key) {
        return S3Entries.text(e, key);
    }
}
