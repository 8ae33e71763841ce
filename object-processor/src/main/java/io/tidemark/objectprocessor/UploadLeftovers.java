package io.tidemark.objectprocessor;

import io.tidemark.seaweed.HeadFid;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import java.time.Instant;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * Whether an upload directory is what a completed upload left behind. SeaweedFS's completion moves the parts' chunks
 * into the object and then removes {@code .uploads/<id>} without its data, only logging a failure (issue #10663): the
 * directory left behind shares its chunks with the live object, and the gateway's abort removes it recursively
 * <em>with</em> its data, destroying the object's (seen only after a vacuum). So before an abort is sent, the
 * upload's part chunks are compared with the chunks of every version of its destination key.
 */
final class UploadLeftovers {

    private static final int PAGE = 1_000;

    private final FilerClient filer;

    UploadLeftovers(FilerClient filer) {
        this.filer = filer;
    }

    /**
     * Blocking: lists the upload and its key's versions.
     *
     * @param uploadPath {@code .uploads/<id>}, bucket-relative
     * @return why the upload must not be aborted (the object or version that shares its chunks), or empty
     */
    Optional<String> sharedWithAnObject(String bucket, String uploadPath) {
        String bucketDir = join(filer.bucketsDirectory(), bucket);
        String uploadsDir = join(bucketDir, S3Layout.UPLOADS_DIRECTORY);
        String uploadId = uploadPath.substring(uploadPath.lastIndexOf('/') + 1);
        Optional<Entry> upload = filer.lookup(uploadsDir, uploadId);
        if (upload.isEmpty()) {
            return Optional.empty();
        }
        var destination = upload.get().getExtendedMap().get(S3Layout.UPLOAD_DESTINATION_KEY);
        if (destination == null || destination.isEmpty()) {
            return Optional.empty();
        }
        Set<String> parts = new HashSet<>();
        for (Entry part : filer.listAll(join(uploadsDir, uploadId), "", PAGE)) {
            part.getChunksList().forEach(c -> parts.add(fid(c)));
        }
        if (parts.isEmpty()) {
            return Optional.empty();
        }
        String key = stripSlash(destination.toStringUtf8());
        String full = join(bucketDir, key);
        String directory = full.substring(0, full.lastIndexOf('/'));
        String name = full.substring(full.lastIndexOf('/') + 1);
        Instant initiated = S3Entries.modTime(upload.get());
        Optional<Entry> bare = filer.lookup(directory, name);
        if (bare.isPresent()) {
            Optional<String> shared = shared(bare.get(), parts, initiated, "object " + key);
            if (shared.isPresent()) {
                return shared;
            }
        }
        Optional<Entry> versions = filer.lookup(directory, S3Layout.versionsDirectoryName(name));
        if (versions.isPresent() && versions.get().getIsDirectory()) {
            for (Entry version : filer.listAll(join(directory, S3Layout.versionsDirectoryName(name)), "", PAGE)) {
                // Every entry is checked: a name that is no version file's is still data that may hold the parts.
                String which = S3Layout.isVersionFileName(version.getName())
                        ? "version " + S3Layout.versionIdOfFileName(version.getName()) : "entry " + version.getName();
                Optional<String> shared = shared(version, parts, initiated, key + " " + which);
                if (shared.isPresent()) {
                    return shared;
                }
            }
        }
        return Optional.empty();
    }

    /**
     * A chunk manifest hides the chunks it lists (reading it needs a volume server), so an object written since the
     * upload began whose chunks are manifests may hold the parts: counted as sharing them, in the safe direction.
     */
    private static Optional<String> shared(Entry entry, Set<String> parts, Instant initiated, String what) {
        if (entry.getIsDirectory()) {
            return Optional.empty();
        }
        if (entry.getChunksList().stream().anyMatch(c -> parts.contains(fid(c)))) {
            return Optional.of("its part chunks are the data of " + what);
        }
        if (entry.getChunksList().stream().anyMatch(FileChunk::getIsChunkManifest)
                && !S3Entries.modTime(entry).isBefore(initiated)) {
            return Optional.of(what + " was written after the upload began and its chunks are manifests that may "
                    + "list the upload's parts");
        }
        return Optional.empty();
    }

    private static String fid(FileChunk chunk) {
        return HeadFid.of(chunk.getFileId(), chunk.getFid().getVolumeId(), chunk.getFid().getFileKey(),
                chunk.getFid().getCookie());
    }

    private static String join(String directory, String name) {
        return directory.endsWith("/") ? directory + name : directory + "/" + name;
    }

    private static String stripSlash(String key) {
        return key.startsWith("/") ? key.substring(1) : key;
    }
}
