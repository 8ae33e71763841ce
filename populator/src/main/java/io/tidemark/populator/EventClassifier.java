package io.tidemark.populator;

import com.google.protobuf.ByteString;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Says what a filer event means for lifecycle, and to which object it belongs. The S3 gateway's layout decides:
 * the bucket is the first directory under the buckets directory; a version file {@code k.versions/v_x} and the
 * {@code k.versions} directory belong to {@code k}; an upload {@code .uploads/<id>} belongs to its destination key.
 * So every event of one object gets the same logical key and shard, and lands on one partition in order. An event
 * that fits no kind is {@link EventKind#OTHER}: kept and counted, never dropped.
 */
public final class EventClassifier {

    private final String bucketsDirectory;
    private final ShardFunction shards;

    public EventClassifier(String bucketsDirectory, ShardFunction shards) {
        this.bucketsDirectory = bucketsDirectory.endsWith("/") ? bucketsDirectory.substring(0, bucketsDirectory.length() - 1)
                : bucketsDirectory;
        this.shards = shards;
    }

    /** The record for one event (not a heartbeat), its chunk lists cut to their first chunk. */
    public MetaLogRecord classify(SubscribeMetadataResponse event) {
        return classify(event, 0);
    }

    /**
     * As {@link #classify(SubscribeMetadataResponse)}, for the {@code seqAtTs}-th event (from 0) stamped with its
     * timestamp.
     */
    public MetaLogRecord classify(SubscribeMetadataResponse event, int seqAtTs) {
        EventNotification n = event.getEventNotification();
        if (!n.hasNewEntry() && !n.hasOldEntry()) {
            // Nothing to address: kept as OTHER so the sequence stays whole, never mistaken for a bucket.
            return MetaLogRecord.newBuilder().setTsNs(event.getTsNs()).setDirectory(event.getDirectory()).setEvent(n)
                    .setKind(EventKind.OTHER).setShard(shards.shardOf("", "")).setSeqAtTs(seqAtTs).build();
        }
        Entry entry = n.hasNewEntry() ? n.getNewEntry() : n.getOldEntry();
        // A move files the entry under its new parent; everything else under the event's directory.
        String directory = n.hasNewEntry() && !n.getNewParentPath().isEmpty() ? n.getNewParentPath() : event.getDirectory();
        String path = directory.equals("/") ? "/" + entry.getName() : directory + "/" + entry.getName();
        Address address = address(path, entry, n);
        return MetaLogRecord.newBuilder()
                .setTsNs(event.getTsNs())
                .setDirectory(event.getDirectory())
                .setEvent(trimChunks(n))
                .setBucket(address.bucket())
                .setLogicalKey(address.logicalKey())
                .setKind(address.kind())
                .setShard(shards.shardOf(address.bucket(), address.logicalKey()))
                .setSeqAtTs(seqAtTs)
                .build();
    }

    private record Address(String bucket, String logicalKey, EventKind kind) {
    }

    private Address address(String path, Entry entry, EventNotification n) {
        String prefix = bucketsDirectory + "/";
        if (!path.startsWith(prefix)) {
            return new Address("", "", EventKind.OTHER);
        }
        String relative = path.substring(prefix.length());
        int slash = relative.indexOf('/');
        String bucket = slash < 0 ? relative : relative.substring(0, slash);
        String rest = slash < 0 ? "" : relative.substring(slash + 1);
        if (rest.isEmpty()) {
            return new Address(bucket, "", bucketKind(n));
        }
        if (rest.equals(S3Layout.UPLOADS_DIRECTORY) || rest.startsWith(S3Layout.UPLOADS_DIRECTORY + "/")) {
            return upload(bucket, rest, entry, n);
        }
        int lastSlash = rest.lastIndexOf('/');
        String parent = lastSlash < 0 ? "" : rest.substring(0, lastSlash);
        if (S3Layout.isVersionsDirectoryName(parent) && S3Layout.isVersionFileName(entry.getName())) {
            String key = S3Layout.objectOfVersionsDirectory(parent);
            return new Address(bucket, key, versionKind(n));
        }
        if (entry.getIsDirectory() && S3Layout.isVersionsDirectoryName(rest)) {
            String key = S3Layout.objectOfVersionsDirectory(rest);
            return new Address(bucket, key, pointerFlipped(n) ? EventKind.LATEST_POINTER_FLIPPED : EventKind.OTHER);
        }
        if (entry.getIsDirectory()) {
            // A directory that only holds keys beneath it: no object of its own.
            return new Address(bucket, rest, EventKind.OTHER);
        }
        return new Address(bucket, rest, objectKind(n));
    }

    private static EventKind bucketKind(EventNotification n) {
        if (!n.hasOldEntry()) {
            return EventKind.BUCKET_CREATED;
        }
        if (!n.hasNewEntry()) {
            return EventKind.BUCKET_DELETED;
        }
        boolean changed = !same(n, S3Layout.LIFECYCLE_XML) || !same(n, S3Layout.VERSIONING)
                || !same(n, S3Layout.OBJECT_LOCK_ENABLED);
        return changed ? EventKind.BUCKET_CONFIG_CHANGED : EventKind.OTHER;
    }

    private static Address upload(String bucket, String rest, Entry entry, EventNotification n) {
        String[] parts = rest.split("/", 3);
        if (parts.length != 2 || parts[1].isEmpty()) {
            // The uploads directory itself, or a part: parts carry nothing lifecycle acts on.
            return new Address(bucket, rest, EventKind.OTHER);
        }
        ByteString destination = entry.getExtendedMap().get(S3Layout.UPLOAD_DESTINATION_KEY);
        if (destination == null || destination.isEmpty() || !entry.getIsDirectory()) {
            return new Address(bucket, rest, EventKind.OTHER);
        }
        return new Address(bucket, destination.toStringUtf8(),
                n.hasNewEntry() ? EventKind.UPLOAD_INITIATED : EventKind.UPLOAD_ENDED);
    }

    private static EventKind versionKind(EventNotification n) {
        if (!n.hasNewEntry()) {
            return EventKind.VERSION_DELETED;
        }
        if (!n.hasOldEntry()) {
            return S3Entries.isDeleteMarker(n.getNewEntry()) ? EventKind.DELETE_MARKER_CREATED
                    : EventKind.VERSION_CREATED;
        }
        return updateKind(n, EventKind.VERSION_CREATED);
    }

    private static EventKind objectKind(EventNotification n) {
        if (!n.hasNewEntry()) {
            return EventKind.OBJECT_DELETED;
        }
        if (!n.hasOldEntry()) {
            return EventKind.OBJECT_WRITTEN;
        }
        return updateKind(n, EventKind.OBJECT_WRITTEN);
    }

    /**
     * An update that replaces content or moves the modification time is a (re)write; one that changes only tags
     * is a tag change; anything else (a noncurrent-since stamp, a lock, metadata) is OTHER.
     */
    private static EventKind updateKind(EventNotification n, EventKind rewrite) {
        Entry before = n.getOldEntry();
        Entry after = n.getNewEntry();
        boolean rewritten = before.getAttributes().getMtime() != after.getAttributes().getMtime()
                || before.getAttributes().getMtimeNs() != after.getAttributes().getMtimeNs()
                || before.getAttributes().getFileSize() != after.getAttributes().getFileSize()
                || !before.getChunksList().equals(after.getChunksList());
        if (rewritten) {
            return rewrite;
        }
        return tags(before).equals(tags(after)) ? EventKind.OTHER : EventKind.TAGS_CHANGED;
    }

    private static boolean pointerFlipped(EventNotification n) {
        return n.hasOldEntry() && n.hasNewEntry()
                && (!same(n, S3Layout.LATEST_VERSION_ID) || !same(n, S3Layout.NULL_VERSION_IS_LATEST));
    }

    private static boolean same(EventNotification n, String key) {
        return Objects.equals(n.getOldEntry().getExtendedMap().get(key), n.getNewEntry().getExtendedMap().get(key));
    }

    private static Map<String, ByteString> tags(Entry e) {
        Map<String, ByteString> tags = new TreeMap<>();
        e.getExtendedMap().forEach((k, v) -> {
            if (k.startsWith(S3Layout.TAG_PREFIX)) {
                tags.put(k, v);
            }
        });
        return tags;
    }

    /** The meta-log keeps the head chunk only: it is all the identity needs, and chunk lists can be long. */
    static EventNotification trimChunks(EventNotification n) {
        boolean oldLong = n.hasOldEntry() && n.getOldEntry().getChunksCount() > 1;
        boolean newLong = n.hasNewEntry() && n.getNewEntry().getChunksCount() > 1;
        if (!oldLong && !newLong) {
            return n;   // the common case: nothing to cut, so no copy
        }
        EventNotification.Builder b = n.toBuilder();
        if (n.hasOldEntry() && n.getOldEntry().getChunksCount() > 1) {
            b.setOldEntry(n.getOldEntry().toBuilder().clearChunks().addChunks(n.getOldEntry().getChunks(0)));
        }
        if (n.hasNewEntry() && n.getNewEntry().getChunksCount() > 1) {
            b.setNewEntry(n.getNewEntry().toBuilder().clearChunks().addChunks(n.getNewEntry().getChunks(0)));
        }
        return b.build();
    }
}
