package io.tidemark.emulator.s3;

import com.google.protobuf.ByteString;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import io.tidemark.seaweed.pb.FilerProto.FileId;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Builds the file entries the gateway writes: objects, versions, upload parts and delete markers, stamped now. */
final class ObjectEntries {

    private static final HexFormat HEX = HexFormat.of();

    private final Clock clock;
    private final VersionIds versionIds;

    ObjectEntries(Clock clock, VersionIds versionIds) {
        this.clock = clock;
        this.versionIds = versionIds;
    }

    /**
     * @param versionId the version ID to stamp, or null for none
     * @param etagOverride the ETag when the caller has one (a completed upload's), else null to derive it
     * @param chunks the object's data when it already exists (a completed upload's parts), else null for new data
     */
    Entry object(String name, String bucket, String key, long size, Map<String, String> tags,
                 Map<String, String> metadata, String versionId, String etagOverride, List<FileChunk> chunks) {
        Instant now = clock.instant();
        // The emulator keeps no data, so the digest is of what identifies the write instead of its content.
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
                .putExtended(S3Layout.ETAG, ByteString.copyFromUtf8(etag));
        if (chunks != null) {
            entry.addAllChunks(chunks);
        } else if (size > 0) {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            entry.addChunks(FileChunk.newBuilder()
                    .setFid(FileId.newBuilder().setVolumeId(1 + random.nextInt(7)).setFileKey(versionIds.nextNanos())
                            .setCookie(random.nextInt()))
                    .setSize(size)
                    .setModifiedTsNs(EpochNanos.of(now))
                    .setETag(etag));
        }
        if (versionId != null) {
            entry.putExtended(S3Layout.VERSION_ID, ByteString.copyFromUtf8(versionId));
        }
        tags.forEach((k, v) -> entry.putExtended(S3Layout.TAG_PREFIX + k, ByteString.copyFromUtf8(v)));
        metadata.forEach((k, v) -> entry.putExtended(S3Layout.USER_METADATA_PREFIX + k, ByteString.copyFromUtf8(v)));
        return entry.build();
    }

    /** A delete marker's version file: no data, only its version ID and the marker flag. */
    Entry deleteMarker(String versionId) {
        Instant now = clock.instant();
        return Entry.newBuilder()
                .setName(S3Layout.versionFileName(versionId))
                .setAttributes(FuseAttributes.newBuilder().setMtime(now.getEpochSecond())
                        .setCrtime(now.getEpochSecond()).setFileMode(0660))
                .putExtended(S3Layout.VERSION_ID, ByteString.copyFromUtf8(versionId))
                .putExtended(S3Layout.DELETE_MARKER, ByteString.copyFromUtf8("true"))
                .build();
    }

    private static byte[] md5(String content) {
        try {
            return MessageDigest.getInstance("MD5").digest(content.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
