package io.tidemark.replay;

import com.google.protobuf.ByteString;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;

/** Meta-log records as the populator writes them for the gateway's operations, for topology tests. */
final class Events {

    static final ShardFunction SHARDS = ShardFunction.withBits(2);

    private Events() {
    }

    static Entry object(String name, Instant mtime, long size, Map<String, String> extended) {
        Entry.Builder b = Entry.newBuilder().setName(name)
                .setAttributes(FuseAttributes.newBuilder().setMtime(mtime.getEpochSecond()).setMtimeNs(mtime.getNano())
                        .setFileSize(size))
                .addChunks(FileChunk.newBuilder().setFileId("3,01637037d6" + Long.toHexString(mtime.toEpochMilli())));
        extended.forEach((k, v) -> b.putExtended(k, ByteString.copyFrom(v, StandardCharsets.UTF_8)));
        return b.build();
    }

    static Entry tagged(String name, Instant mtime, long size, Map<String, String> tags) {
        Entry.Builder b = object(name, mtime, size, Map.of()).toBuilder();
        tags.forEach((k, v) -> b.putExtended(S3Layout.TAG_PREFIX + k, ByteString.copyFromUtf8(v)));
        return b.build();
    }

    static MetaLogRecord record(EventKind kind, String bucket, String key, String directory, Entry oldEntry,
                                Entry newEntry, Instant at) {
        EventNotification.Builder n = EventNotification.newBuilder();
        if (oldEntry != null) {
            n.setOldEntry(oldEntry);
        }
        if (newEntry != null) {
            n.setNewEntry(newEntry);
        }
        return MetaLogRecord.newBuilder().setTsNs(at.getEpochSecond() * 1_000_000_000L + at.getNano())
                .setDirectory(directory).setEvent(n).setBucket(bucket).setLogicalKey(key).setKind(kind)
                .setShard(SHARDS.shardOf(bucket, key)).build();
    }

    /** An unversioned PUT of {@code key} (no directories in the key). */
    static MetaLogRecord written(String bucket, Entry entry, Instant at) {
        return record(EventKind.OBJECT_WRITTEN, bucket, entry.getName(), "/buckets/" + bucket, null, entry, at);
    }

    static MetaLogRecord overwritten(String bucket, Entry before, Entry after, Instant at) {
        return record(EventKind.OBJECT_WRITTEN, bucket, after.getName(), "/buckets/" + bucket, before, after, at);
    }

    static MetaLogRecord deleted(String bucket, Entry entry, Instant at) {
        return record(EventKind.OBJECT_DELETED, bucket, entry.getName(), "/buckets/" + bucket, entry, null, at);
    }

    static MetaLogRecord rearm(String bucket, Entry entry, Instant at) {
        return record(EventKind.REARM, bucket, entry.getName(), "/buckets/" + bucket, null, entry, at);
    }

    static Entry upload(String id, String key, Instant initiated) {
        return Entry.newBuilder().setName(id).setIsDirectory(true)
                .setAttributes(FuseAttributes.newBuilder().setMtime(initiated.getEpochSecond()))
                .putExtended(S3Layout.UPLOAD_DESTINATION_KEY, ByteString.copyFromUtf8(key)).build();
    }

    static MetaLogRecord uploadInitiated(String bucket, Entry upload, Instant at) {
        return record(EventKind.UPLOAD_INITIATED, bucket, upload.getExtendedOrThrow(S3Layout.UPLOAD_DESTINATION_KEY)
                .toStringUtf8(), "/buckets/" + bucket + "/" + S3Layout.UPLOADS_DIRECTORY, null, upload, at);
    }

    static MetaLogRecord uploadEnded(String bucket, Entry upload, Instant at) {
        return record(EventKind.UPLOAD_ENDED, bucket, upload.getExtendedOrThrow(S3Layout.UPLOAD_DESTINATION_KEY)
                .toStringUtf8(), "/buckets/" + bucket + "/" + S3Layout.UPLOADS_DIRECTORY, upload, null, at);
    }
}
