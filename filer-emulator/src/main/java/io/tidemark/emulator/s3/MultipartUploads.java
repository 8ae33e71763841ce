package io.tidemark.emulator.s3;

import com.google.protobuf.ByteString;
import io.tidemark.emulator.filer.FilerPaths;
import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Multipart uploads in upstream's layout: a directory per upload under the bucket's {@code .uploads}, naming the
 * destination key, holding a file per part until completion turns the parts into the object.
 */
final class MultipartUploads {

    private static final HexFormat HEX = HexFormat.of();

    private final FilerStore store;
    private final Clock clock;
    private final Buckets buckets;
    private final ObjectEntries entries;
    private final VersionedWrites writes;
    private volatile boolean completionLeavesUpload;

    MultipartUploads(FilerStore store, Clock clock, Buckets buckets, ObjectEntries entries, VersionedWrites writes) {
        this.store = store;
        this.clock = clock;
        this.buckets = buckets;
        this.entries = entries;
        this.writes = writes;
    }

    String uploadsDirectory(String bucket) {
        return FilerPaths.join(buckets.bucketDirectory(bucket), S3Layout.UPLOADS_DIRECTORY);
    }

    String create(String bucket, String key) {
        buckets.require(bucket);
        String uploadId = sha1Hex(stripSlash(key)) + "_" + UUID.randomUUID().toString().replace("-", "");
        Entry dir = FilerStore.newDirectory(uploadId, clock.instant()).toBuilder()
                .putExtended(S3Layout.UPLOAD_DESTINATION_KEY, ByteString.copyFromUtf8(key)).build();
        FilerCall.run(() -> store.create(uploadsDirectory(bucket), dir, true));
        return uploadId;
    }

    void uploadPart(String bucket, String uploadId, int partNumber, long size) {
        String dir = FilerPaths.join(uploadsDirectory(bucket), uploadId);
        if (store.lookup(dir).isEmpty()) {
            throw new S3Exception("NoSuchUpload", "upload " + uploadId + " does not exist");
        }
        Entry part = entries.object(String.format("%04d.part", partNumber), bucket, uploadId, size, Map.of(), Map.of(),
                null, null, null);
        FilerCall.run(() -> store.create(dir, part, false));
    }

    String complete(String bucket, String uploadId) {
        String dir = FilerPaths.join(uploadsDirectory(bucket), uploadId);
        synchronized (store) {
            Entry upload = store.lookup(dir).orElseThrow(() -> new S3Exception("NoSuchUpload", "upload " + uploadId
                    + " does not exist"));
            String key = S3Entries.text(upload, S3Layout.UPLOAD_DESTINATION_KEY).orElseThrow();
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
            String versionId = writes.put(bucket, key, size, Map.of(), Map.of(), etag, chunks);
            if (!completionLeavesUpload) {
                FilerCall.run(() -> store.delete(uploadsDirectory(bucket), uploadId, true, false, 0));
            }
            return versionId;
        }
    }

    void setCompletionLeavesUpload(boolean leaves) {
        completionLeavesUpload = leaves;
    }

    void abort(String bucket, String uploadId) {
        FilerCall.run(() -> store.delete(uploadsDirectory(bucket), uploadId, true, true, 0));
    }

    void backdate(String bucket, String uploadId, Instant initiated) {
        FilerCall.run(() -> store.modify(FilerPaths.join(uploadsDirectory(bucket), uploadId), e -> e.toBuilder()
                .setAttributes(e.getAttributes().toBuilder().setMtime(initiated.getEpochSecond())
                        .setCrtime(initiated.getEpochSecond())).build()));
    }

    private static String stripSlash(String key) {
        return key.startsWith("/") ? key.substring(1) : key;
    }

    private static String sha1Hex(String content) {
        try {
            return HEX.formatHex(MessageDigest.getInstance("SHA-1").digest(content.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
