package io.tidemark.emulator.s3;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.filer.FilerException;
import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.config.LifecycleConfigs;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import io.tidemark.seaweed.pb.FilerProto.FileId;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;

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

    private static final HexFormat HEX = HexFormat.of();

    private final FilerStore store;
    private final String bucketsDirectory;
    private final AtomicLong lastVersionNanos = new AtomicLong();
    private final AtomicLong driftCounter = new AtomicLong();
    private volatile boolean completionLeavesUpload;

    public S3Gateway(FilerStore store, String bucketsDirectory) {
        this.store = store;
        this.bucketsDirectory = FilerPaths.normalize(bucketsDirectory);
    }

    public String bucketsDirectory() {
        return bucketsDirectory;
    }

    public FilerStore store() {
        return store;
    }

    // ---- buckets

    public void createBucket(String bucket, boolean objectLock) {
        Instant now = now();
        Entry.Builder entry = FilerStore.newDirectory(bucket, now).toBuilder()
                .putExtended(S3Layout.OWNER, utf8("tidemark"));
        if (objectLock) {
            entry.putExtended(S3Layout.OBJECT_LOCK_ENABLED, utf8("Enabled"))
                    .putExtended(S3Layout.VERSIONING, utf8("Enabled"));
        }
        run(() -> store.create(bucketsDirectory, entry.build(), true));
    }

    /** Removes a bucket and everything in it. */
    public void deleteBucket(String bucket) {
        requireBucket(bucket);
        run(() -> store.delete(bucketsDirectory, bucket, true, true, 0));
    }

    public void setVersioning(String bucket, BucketVersioning versioning) {
        if (versioning == BucketVersioning.OFF) {
            throw new S3Exception("IllegalVersioningConfigurationException", "versioning can only be Enabled or Suspended");
        }
        if (versioning == BucketVersioning.SUSPENDED && objectLocked(bucket)) {
            throw new S3Exception("InvalidBucketState", "versioning cannot be suspended on a bucket with object lock");
        }
        String value = versioning == BucketVersioning.ENABLED ? "Enabled" : "Suspended";
        modifyBucket(bucket, e -> e.toBuilder().putExtended(S3Layout.VERSIONING, utf8(value)).build());
    }

    public BucketVersioning versioning(String bucket) {
        Entry entry = requireBucket(bucket);
        ByteString value = entry.getExtendedMap().get(S3Layout.VERSIONING);
        return value == null ? BucketVersioning.OFF : BucketVersioning.parse(value.toStringUtf8());
    }

    public boolean objectLocked(String bucket) {
        ByteString value = requireBucket(bucket).getExtendedMap().get(S3Layout.OBJECT_LOCK_ENABLED);
        return value != null && S3Layout.enabled(value.toStringUtf8());
    }

    public boolean bucketExists(String bucket) {
        return store.lookup(bucketsDirectory, bucket).filter(Entry::getIsDirectory).isPresent();
    }

    /**
     * Stores a lifecycle configuration after checking it as SeaweedFS's gateway does: S3's checks, except that a
     * NewerNoncurrentVersions without NoncurrentDays is accepted.
     */
    public void putLifecycle(String bucket, String xml) {
        try {
            LifecycleConfigs.parseAndValidate(xml, ValidationMode.SEAWEEDFS);
        } catch (LifecycleConfigException e) {
            throw new S3Exception(e.code().name(), e.getMessage());
        }
        putLifecycleUnchecked(bucket, xml);
    }

    /** Stores lifecycle XML as given, valid or not, as a write behind the gateway's back would. */
    public void putLifecycleUnchecked(String bucket, String xml) {
        modifyBucket(bucket, e -> e.toBuilder()
                .putExtended(S3Layout.LIFECYCLE_XML, utf8(xml))
                .putExtended(S3Layout.LIFECYCLE_MIN_TRANSITION_SIZE, utf8("all_storage_classes_128K"))
                .build());
    }

    public void deleteLifecycle(String bucket) {
        modifyBucket(bucket, e -> e.toBuilder()
                .removeExtended(S3Layout.LIFECYCLE_XML)
                .removeExtended(S3Layout.LIFECYCLE_MIN_TRANSITION_SIZE)
                .build());
    }

    // ---- objects

    /**
     * Writes an object. Returns the new version's ID: a generated one when versioning is enabled, "null" when
     * suspended, {@code null} when the bucket was never versioned.
     */
    public String putObject(String bucket, String key, long size, Map<String, String> tags, Map<String, String> metadata) {
        return putObject(bucket, key, size, tags, metadata, null, null);
    }

    /** @param chunks the object's data when it already exists (a completed upload's parts), else null for new data */
    private String putObject(String bucket, String key, long size, Map<String, String> tags, Map<String, String> metadata,
                             String etagOverride, List<FileChunk> chunks) {
        ObjectPath p = path(bucket, key);
        synchronized (store) {
            BucketVersioning versioning = versioning(bucket);
            switch (versioning) {
                case OFF -> {
                    run(() -> store.create(p.directory(), objectEntry(p.name(), bucket, key, size, tags, metadata, null,
                            etagOverride, chunks), false));
                    return null;
                }
                case ENABLED -> {
                    String versionId = newVersionId();
                    Entry version = objectEntry(S3Layout.versionFileName(versionId), bucket, key, size, tags, metadata,
                            versionId, etagOverride, chunks);
                    putVersion(p, versionId, version, false);
                    return versionId;
                }
                default -> {
                    // Upstream's suspended write: the bare object, then (when the key has a .versions directory)
                    // the stamp on what the pointer named, the null-is-latest flag, and the removal of a version
                    // whose ID is "null" (a null delete marker; a marker with a real ID stays).
                    run(() -> store.create(p.directory(), objectEntry(p.name(), bucket, key, size, tags, metadata,
                            S3Layout.NULL_VERSION_ID, etagOverride, chunks), false));
                    Optional<Entry> dir = versionsDirectory(p);
                    if (dir.isPresent()) {
                        stampPointedVersion(p, dir.get(), "");
                        pointToNullVersion(p);
                        store.list(p.versionsDirectory(), "", "", false, 1000).stream()
                                .filter(e -> text(e, S3Layout.VERSION_ID).orElse("").equals(S3Layout.NULL_VERSION_ID))
                                .findFirst().ifPresent(e -> deleteIfPresent(p.versionsDirectory(), e.getName()));
                    }
                    return S3Layout.NULL_VERSION_ID;
                }
            }
        }
    }

    /**
     * Deletes an object without a version ID: permanently when never versioned, otherwise by placing a delete
     * marker on top (a null marker when suspended, which also removes the null version). Returns the marker's
     * version ID, or {@code null}.
     */
    public String deleteObject(String bucket, String key) {
        ObjectPath p = path(bucket, key);
        synchronized (store) {
            BucketVersioning versioning = versioning(bucket);
            if (versioning == BucketVersioning.OFF) {
                deleteIfPresent(p.directory(), p.name());
                return null;
            }
            if (versioning == BucketVersioning.ENABLED) {
                return placeDeleteMarker(bucket, key);
            }
            deleteBareIfPresent(p);
            Entry marker = markerEntry(S3Layout.versionFileName(S3Layout.NULL_VERSION_ID), S3Layout.NULL_VERSION_ID);
            putVersion(p, S3Layout.NULL_VERSION_ID, marker, true);
            return S3Layout.NULL_VERSION_ID;
        }
    }

    /**
     * Puts a delete marker with a new version ID on top of a key, whatever the bucket's versioning: what an Enabled
     * bucket's delete does, and what upstream's lifecycle expiration does in a Suspended bucket too (after deleting
     * the null version), so such a marker is not removed by a later suspended write the way a "null" one is.
     */
    public String placeDeleteMarker(String bucket, String key) {
        ObjectPath p = path(bucket, key);
        synchronized (store) {
            String markerId = newVersionId();
            putVersion(p, markerId, markerEntry(S3Layout.versionFileName(markerId), markerId), true);
            return markerId;
        }
    }

    /** Deletes the bare null version of a key, if there is one; returns whether there was. */
    public boolean deleteBareIfPresent(ObjectPath p) {
        synchronized (store) {
            if (store.lookup(p.directory(), p.name()).filter(e -> !e.getIsDirectory()).isEmpty()) {
                return false;
            }
            deleteIfPresent(p.directory(), p.name());
            return true;
        }
    }

    /** A version file in {@code .versions}, the stamp on what the pointer named before, then the pointer. */
    private void putVersion(ObjectPath p, String versionId, Entry version, boolean marker) {
        Optional<Entry> before = versionsDirectory(p);
        run(() -> store.create(p.versionsDirectory(), version, false));
        before.ifPresent(dir -> stampPointedVersion(p, dir, version.getName()));
        pointTo(p, versionId, version, marker);
    }

    /**
     * Permanently deletes one version, as upstream's off-ring path does. Version "null" is the bare object only.
     * Any other version is a file in {@code .versions}: when the pointer names it, the pointer first moves to the
     * remaining file first in version-ID order ("null" last; the bare null version is never considered), or is
     * cleared when none remains; then the file goes, and the emptied directory after it.
     */
    public boolean deleteVersion(String bucket, String key, String versionId) {
        ObjectPath p = path(bucket, key);
        synchronized (store) {
            if (versionId.equals(S3Layout.NULL_VERSION_ID)) {
                return deleteBareIfPresent(p);
            }
            String fileName = S3Layout.versionFileName(versionId);
            Optional<Entry> dir = versionsDirectory(p);
            if (dir.isEmpty() || store.lookup(p.versionsDirectory(), fileName).isEmpty()) {
                return false;
            }
            boolean latest = text(dir.get(), S3Layout.LATEST_VERSION_ID).orElse("").equals(versionId);
            boolean singleton = false;
            if (latest) {
                Optional<Entry> next = store.list(p.versionsDirectory(), S3Layout.VERSION_FILE_PREFIX, "", false, 0)
                        .stream()
                        .filter(e -> !e.getIsDirectory() && !e.getName().equals(fileName))
                        .min(Comparator.comparing(S3Gateway::versionIdOf, S3Gateway::compareVersionIds));
                if (next.isPresent()) {
                    pointTo(p, versionIdOf(next.get()), next.get(), S3Entries.isDeleteMarker(next.get()));
                } else {
                    singleton = true;
                    clearPointer(p);
                }
            }
            run(() -> store.delete(p.versionsDirectory(), fileName, false, true, 0));
            if (singleton) {
                deleteIfPresent(p.directory(), S3Layout.versionsDirectoryName(p.name()));
            }
            return true;
        }
    }

    private static String versionIdOf(Entry versionFile) {
        return text(versionFile, S3Layout.VERSION_ID)
                .orElse(S3Layout.versionIdOfFileName(versionFile.getName()));
    }

    /**
     * Upstream's version-ID order, newest first: "null" is the oldest; IDs of the current format (inverted time)
     * sort ascending. The emulator only makes IDs of the current format.
     */
    static int compareVersionIds(String a, String b) {
        if (a.equals(b)) {
            return 0;
        }
        if (a.equals(S3Layout.NULL_VERSION_ID)) {
            return 1;
        }
        if (b.equals(S3Layout.NULL_VERSION_ID)) {
            return -1;
        }
        return a.compareTo(b);
    }

    /** Every version of a key, newest first (by modification time, then by version file name). */
    public List<ObjectVersionInfo> versions(String bucket, String key) {
        ObjectPath p = path(bucket, key);
        synchronized (store) {
            Optional<Entry> dir = versionsDirectory(p);
            String latestId = dir.flatMap(d -> text(d, S3Layout.LATEST_VERSION_ID)).orElse(null);
            boolean nullIsLatest = dir.flatMap(d -> text(d, S3Layout.NULL_VERSION_IS_LATEST)).map(S3Layout::flag)
                    .orElse(dir.isEmpty() || latestId == null);
            List<ObjectVersionInfo> all = new ArrayList<>();
            if (dir.isPresent()) {
                for (Entry e : store.list(p.versionsDirectory(), S3Layout.VERSION_FILE_PREFIX, "", false, 0)) {
                    String id = text(e, S3Layout.VERSION_ID).orElse(e.getName().substring(2));
                    all.add(new ObjectVersionInfo(id, !nullIsLatest && id.equals(latestId), S3Entries.isDeleteMarker(e),
                            FilerPaths.join(p.versionsDirectory(), e.getName()), e));
                }
            }
            store.lookup(p.directory(), p.name()).filter(e -> !e.getIsDirectory()).ifPresent(e ->
                    all.add(new ObjectVersionInfo(S3Layout.NULL_VERSION_ID, nullIsLatest, S3Entries.isDeleteMarker(e),
                            p.bare(), e)));
            all.sort(Comparator.comparingLong((ObjectVersionInfo v) -> -mtimeNanos(v.entry()))
                    .thenComparing(v -> v.entry().getName()));
            if (all.stream().noneMatch(ObjectVersionInfo::latest) && !all.isEmpty()) {
                ObjectVersionInfo newest = all.get(0);
                all.set(0, new ObjectVersionInfo(newest.versionId(), true, newest.deleteMarker(), newest.path(),
                        newest.entry()));
            }
            return all;
        }
    }

    /** The current version of a key (possibly a delete marker). */
    public Optional<ObjectVersionInfo> latest(String bucket, String key) {
        return versions(bucket, key).stream().filter(ObjectVersionInfo::latest).findFirst();
    }

    /**
     * One version: {@code null} for the latest, "null" for the null version, or a version ID. As upstream, "null" is
     * the bare object only: a null delete marker in {@code .versions} is listed but cannot be addressed.
     */
    public Optional<ObjectVersionInfo> version(String bucket, String key, String versionId) {
        if (versionId == null) {
            return latest(bucket, key);
        }
        String bare = path(bucket, key).bare();
        return versions(bucket, key).stream().filter(v -> v.versionId().equals(versionId))
                .filter(v -> !versionId.equals(S3Layout.NULL_VERSION_ID) || v.path().equals(bare)).findFirst();
    }

    public void putTags(String bucket, String key, String versionId, Map<String, String> tags) {
        modifyVersion(bucket, key, versionId, e -> {
            Entry.Builder b = e.toBuilder();
            e.getExtendedMap().keySet().stream().filter(k -> k.startsWith(S3Layout.TAG_PREFIX)).forEach(b::removeExtended);
            tags.forEach((k, v) -> b.putExtended(S3Layout.TAG_PREFIX + k, utf8(v)));
            return b.build();
        });
    }

    public void putLegalHold(String bucket, String key, String versionId, boolean on) {
        requireLockable(bucket);
        modifyVersion(bucket, key, versionId, e -> e.toBuilder()
                .putExtended(S3Layout.LEGAL_HOLD, utf8(on ? "ON" : "OFF")).build());
    }

    public void putRetention(String bucket, String key, String versionId, String mode, Instant until) {
        requireLockable(bucket);
        if (!mode.equals("GOVERNANCE") && !mode.equals("COMPLIANCE")) {
            throw new S3Exception("MalformedXML", "retention mode must be GOVERNANCE or COMPLIANCE");
        }
        modifyVersion(bucket, key, versionId, e -> e.toBuilder()
                .putExtended(S3Layout.LOCK_MODE, utf8(mode))
                .putExtended(S3Layout.RETAIN_UNTIL, utf8(String.valueOf(until.getEpochSecond()))).build());
    }

    /** Sets an entry's modification time, as SeaweedFS's tests do to age objects. */
    public void backdate(String bucket, String key, String versionId, Instant mtime) {
        modifyVersion(bucket, key, versionId, e -> e.toBuilder().setAttributes(e.getAttributes().toBuilder()
                .setMtime(mtime.getEpochSecond()).setMtimeNs(mtime.getNano())).build());
    }

    /** Changes an entry behind the pipeline's back (a new extended attribute), so its identity no longer matches. */
    public void drift(String bucket, String key, String versionId) {
        String value = String.valueOf(driftCounter.incrementAndGet());
        modifyVersion(bucket, key, versionId, e -> e.toBuilder()
                .putExtended(S3Layout.USER_METADATA_PREFIX + "Tidemark-Drift", utf8(value)).build());
    }

    // ---- multipart uploads

    public String createUpload(String bucket, String key) {
        requireBucket(bucket);
        String uploadId = sha1Hex(stripSlash(key)) + "_" + UUID.randomUUID().toString().replace("-", "");
        Entry dir = FilerStore.newDirectory(uploadId, now()).toBuilder()
                .putExtended(S3Layout.UPLOAD_DESTINATION_KEY, utf8(key)).build();
        run(() -> store.create(uploadsDirectory(bucket), dir, true));
        return uploadId;
    }

    public void uploadPart(String bucket, String uploadId, int partNumber, long size) {
        String dir = FilerPaths.join(uploadsDirectory(bucket), uploadId);
        if (store.lookup(dir).isEmpty()) {
            throw new S3Exception("NoSuchUpload", "upload " + uploadId + " does not exist");
        }
        Entry part = objectEntry(String.format("%04d.part", partNumber), bucket, uploadId, size, Map.of(), Map.of(), null,
                null, null);
        run(() -> store.create(dir, part, false));
    }

    /**
     * Assembles the parts into the object — their chunks become the object's, as upstream's completion moves them
     * (no data is copied) — and removes the upload directory without its data. Returns the object's version ID.
     */
    public String completeUpload(String bucket, String uploadId) {
        String dir = FilerPaths.join(uploadsDirectory(bucket), uploadId);
        synchronized (store) {
            Entry upload = store.lookup(dir).orElseThrow(() -> new S3Exception("NoSuchUpload", "upload " + uploadId
                    + " does not exist"));
            String key = text(upload, S3Layout.UPLOAD_DESTINATION_KEY).orElseThrow();
            List<Entry> parts = store.list(dir, "", "", false, 0);
            long size = parts.stream().mapToLong(e -> e.getAttributes().getFileSize()).sum();
            String etag = sha1Hex(uploadId).substring(0, 32) + "-" + parts.size();
            List<FileChunk> chunks = new ArrayList<>();
            long offset = 0;
            for (Entry part : parts) {
                for (FileChunk chunk : part.getChunksList()) {
                    chunks.add(chunk.toBuilder().setOffset(offset + chunk.getOffset()).build());
                }
                offset += part.getAttributes().getFileSize();
            }
            String versionId = putObject(bucket, key, size, Map.of(), Map.of(), etag, chunks);
            if (!completionLeavesUpload) {
                run(() -> store.delete(uploadsDirectory(bucket), uploadId, true, false, 0));
            }
            return versionId;
        }
    }

    /**
     * Makes completions leave {@code .uploads/<id>} behind, parts and all, as upstream does when its removal fails
     * (it only logs; SeaweedFS issue #10663): the leftover shares its chunks with the completed object, and an abort
     * of it, which deletes with the data, destroys the object's.
     */
    public void setCompletionLeavesUpload(boolean leaves) {
        completionLeavesUpload = leaves;
    }

    public void abortUpload(String bucket, String uploadId) {
        run(() -> store.delete(uploadsDirectory(bucket), uploadId, true, true, 0));
    }

    public void backdateUpload(String bucket, String uploadId, Instant initiated) {
        run(() -> store.modify(FilerPaths.join(uploadsDirectory(bucket), uploadId), e -> e.toBuilder()
                .setAttributes(e.getAttributes().toBuilder().setMtime(initiated.getEpochSecond())
                        .setCrtime(initiated.getEpochSecond())).build()));
    }

    public String uploadsDirectory(String bucket) {
        return FilerPaths.join(bucketDirectory(bucket), S3Layout.UPLOADS_DIRECTORY);
    }

    public String bucketDirectory(String bucket) {
        return FilerPaths.join(bucketsDirectory, bucket);
    }

    // ---- layout helpers

    /** Where an object's entries live: the directory, its own name, and its versions directory. */
    public ObjectPath path(String bucket, String key) {
        requireBucket(bucket);
        if (key.isEmpty() || key.startsWith("/") || key.endsWith("/")) {
            throw new S3Exception("InvalidArgument", "object key \"" + key + "\" is not supported by the emulator");
        }
        String full = FilerPaths.join(bucketDirectory(bucket), key);
        return new ObjectPath(FilerPaths.parent(full), FilerPaths.name(full));
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

    private Optional<Entry> versionsDirectory(ObjectPath p) {
        return store.lookup(p.directory(), S3Layout.versionsDirectoryName(p.name())).filter(Entry::getIsDirectory);
    }

    /**
     * Upstream's demotion stamp: on the {@code .versions} file the pointer names (best effort), unless that is the
     * file just written. With no pointer — the null version current — nothing is stamped.
     */
    private void stampPointedVersion(ObjectPath p, Entry versionsDirectory, String newFileName) {
        String previous = text(versionsDirectory, S3Layout.LATEST_VERSION_FILE_NAME).orElse("");
        if (previous.isEmpty() || previous.equals(newFileName)
                || store.lookup(p.versionsDirectory(), previous).isEmpty()) {
            return;
        }
        String since = String.valueOf(EpochNanos.of(now()));
        run(() -> store.modify(FilerPaths.join(p.versionsDirectory(), previous), e -> e.toBuilder()
                .putExtended(S3Layout.NONCURRENT_SINCE_NS, utf8(since)).build()));
    }

    private void pointTo(ObjectPath p, String versionId, Entry version, boolean marker) {
        run(() -> store.modify(p.versionsDirectory(), d -> d.toBuilder()
                .putExtended(S3Layout.LATEST_VERSION_ID, utf8(versionId))
                .putExtended(S3Layout.LATEST_VERSION_FILE_NAME, utf8(S3Layout.versionFileName(versionId)))
                .putExtended(S3Layout.LATEST_VERSION_SIZE, utf8(String.valueOf(version.getAttributes().getFileSize())))
                .putExtended(S3Layout.LATEST_VERSION_ETAG, version.getExtendedMap().getOrDefault(S3Layout.ETAG,
                        ByteString.EMPTY))
                .putExtended(S3Layout.LATEST_VERSION_MTIME, utf8(String.valueOf(version.getAttributes().getMtime())))
                .putExtended(S3Layout.LATEST_VERSION_IS_DELETE_MARKER, utf8(String.valueOf(marker)))
                .removeExtended(S3Layout.NULL_VERSION_IS_LATEST)
                .build()));
    }

    private void pointToNullVersion(ObjectPath p) {
        run(() -> store.modify(p.versionsDirectory(), d -> withoutPointer(d).toBuilder()
                .putExtended(S3Layout.NULL_VERSION_IS_LATEST, utf8("true"))
                .build()));
    }

    private void clearPointer(ObjectPath p) {
        run(() -> store.modify(p.versionsDirectory(), S3Gateway::withoutPointer));
    }

    private static Entry withoutPointer(Entry directory) {
        return directory.toBuilder()
                .removeExtended(S3Layout.LATEST_VERSION_ID)
                .removeExtended(S3Layout.LATEST_VERSION_FILE_NAME)
                .removeExtended(S3Layout.LATEST_VERSION_SIZE)
                .removeExtended(S3Layout.LATEST_VERSION_ETAG)
                .removeExtended(S3Layout.LATEST_VERSION_MTIME)
                .removeExtended(S3Layout.LATEST_VERSION_IS_DELETE_MARKER)
                .build();
    }

    private void modifyVersion(String bucket, String key, String versionId, UnaryOperator<Entry> change) {
        synchronized (store) {
            ObjectVersionInfo target = version(bucket, key, versionId).orElseThrow(() -> new S3Exception(
                    versionId == null ? "NoSuchKey" : "NoSuchVersion", bucket + "/" + key
                    + (versionId == null ? "" : " version " + versionId) + " does not exist"));
            run(() -> store.modify(target.path(), change));
        }
    }

    private void modifyBucket(String bucket, UnaryOperator<Entry> change) {
        requireBucket(bucket);
        run(() -> store.modify(bucketDirectory(bucket), change));
    }

    private Entry requireBucket(String bucket) {
        return store.lookup(bucketsDirectory, bucket).filter(Entry::getIsDirectory)
                .orElseThrow(() -> new S3Exception("NoSuchBucket", "bucket " + bucket + " does not exist"));
    }

    private void requireLockable(String bucket) {
        if (!objectLocked(bucket)) {
            throw new S3Exception("InvalidRequest", "bucket " + bucket + " has no object lock configuration");
        }
    }

    private void deleteIfPresent(String directory, String name) {
        run(() -> store.delete(directory, name, true, true, 0));
    }

    private Entry objectEntry(String name, String bucket, String key, long size, Map<String, String> tags,
                              Map<String, String> metadata, String versionId, String etagOverride,
                              List<FileChunk> chunks) {
        Instant now = now();
        byte[] md5 = md5(bucket + "/" + key + "/" + size + "/" + now);
        String etag = etagOverride != null ? etagOverride : HEX.formatHex(md5);
        Entry.Builder entry = Entry.newBuilder()
                .setName(name)
                .setAttributes(FuseAttributes.newBuilder()
                        .setFileSize(size)
                        .setMtime(now.getEpochSecond())
                        .setCrtime(now.getEpochSecond())
                        .setFileMode(0660)
                        .setMime("application/octet-stream")
                        .setMd5(ByteString.copyFrom(md5)))
                .putExtended(S3Layout.ETAG, utf8(etag));
        if (chunks != null) {
            entry.addAllChunks(chunks);
        } else if (size > 0) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            entry.addChunks(FileChunk.newBuilder()
                    .setFid(FileId.newBuilder().setVolumeId(1 + random.nextInt(7)).setFileKey(nextNanos())
                            .setCookie(random.nextInt()))
                    .setSize(size)
                    .setModifiedTsNs(EpochNanos.of(now))
                    .setETag(etag));
        }
        if (versionId != null) {
            entry.putExtended(S3Layout.VERSION_ID, utf8(versionId));
        }
        tags.forEach((k, v) -> entry.putExtended(S3Layout.TAG_PREFIX + k, utf8(v)));
        metadata.forEach((k, v) -> entry.putExtended(S3Layout.USER_METADATA_PREFIX + k, utf8(v)));
        return entry.build();
    }

    private Entry markerEntry(String name, String versionId) {
        Instant now = now();
        return Entry.newBuilder()
                .setName(name)
                .setAttributes(FuseAttributes.newBuilder().setMtime(now.getEpochSecond()).setCrtime(now.getEpochSecond())
                        .setFileMode(0660))
                .putExtended(S3Layout.VERSION_ID, utf8(versionId))
                .putExtended(S3Layout.DELETE_MARKER, utf8("true"))
                .build();
    }

    /**
     * A version ID in SeaweedFS's current format: 16 hex digits of (MaxInt64 - now in ns), so newer versions
     * sort first, then 16 random hex digits.
     */
    private String newVersionId() {
        return String.format("%016x%016x", Long.MAX_VALUE - nextNanos(), ThreadLocalRandom.current().nextLong());
    }

    /** Clock nanoseconds, strictly increasing across calls. */
    private long nextNanos() {
        Instant now = now();
        long nanos = EpochNanos.of(now);
        return lastVersionNanos.updateAndGet(last -> Math.max(last + 1, nanos));
    }

    static Optional<String> text(Entry e, String key) {
        return S3Entries.text(e, key);
    }

    private static long mtimeNanos(Entry e) {
        return e.getAttributes().getMtime() * 1_000_000_000L + e.getAttributes().getMtimeNs();
    }

    private Instant now() {
        return store.clock().instant();
    }

    private static ByteString utf8(String s) {
        return ByteString.copyFrom(s, StandardCharsets.UTF_8);
    }

    private static String stripSlash(String key) {
        return key.startsWith("/") ? key.substring(1) : key;
    }

    private static byte[] md5(String content) {
        try {
            return MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha1Hex(String content) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-1").digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A filer mutation the gateway issues; a refusal becomes an internal error, as a broken filer would. */
    private interface FilerCall {
        Object call() throws FilerException;
    }

    private static void run(FilerCall call) {
        try {
            call.call();
        } catch (FilerException e) {
            throw new S3Exception(e.isNotFound() ? "NoSuchKey" : "InternalError", e.getMessage());
        }
    }
}
