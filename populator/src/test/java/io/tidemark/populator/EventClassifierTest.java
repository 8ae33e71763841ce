package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.emulator.filer.FilerStore;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.ShardFunction;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import io.tidemark.seaweed.pb.FilerProto.SubscribeMetadataResponse;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Classifies the events the emulated S3 gateway really writes, operation by operation. */
class EventClassifierTest {

    private final FilerStore store = FilerStore.inMemory(Clock.systemUTC(), 1);
    private final S3Gateway s3 = new S3Gateway(store, "/buckets");
    private final EventClassifier classifier = new EventClassifier("/buckets", ShardFunction.standard());
    private int seen = store.eventCount();

    /** The records of the events written since the last call. */
    private List<MetaLogRecord> next() {
        List<SubscribeMetadataResponse> events = store.events(seen);
        seen = store.eventCount();
        return events.stream().map(classifier::classify).toList();
    }

    private static String describe(MetaLogRecord r) {
        return r.getKind() + " " + r.getBucket() + "/" + r.getLogicalKey();
    }

    @Test
    void shouldClassifyBucketLifeAndConfigurationChanges() {
        s3.createBucket("b", false);
        // The first bucket also creates the buckets directory, which belongs to no bucket.
        assertThat(next()).extracting(EventClassifierTest::describe).containsExactly("OTHER /", "BUCKET_CREATED b/");
        s3.putLifecycleUnchecked("b", "<LifecycleConfiguration/>");
        s3.setVersioning("b", BucketVersioning.ENABLED);
        assertThat(next()).extracting(MetaLogRecord::getKind)
                .containsExactly(EventKind.BUCKET_CONFIG_CHANGED, EventKind.BUCKET_CONFIG_CHANGED);
        s3.deleteBucket("b");
        assertThat(next()).extracting(EventClassifierTest::describe).containsExactly("BUCKET_DELETED b/");
    }

    @Test
    void shouldClassifyPlainObjectsAndTheirParentDirectories() {
        s3.createBucket("b", false);
        next();
        s3.putObject("b", "logs/2026/a.txt", 10, Map.of(), Map.of());
        assertThat(next()).extracting(EventClassifierTest::describe)
                .containsExactly("OTHER b/logs", "OTHER b/logs/2026", "OBJECT_WRITTEN b/logs/2026/a.txt");
        s3.putTags("b", "logs/2026/a.txt", null, Map.of("env", "prod"));
        s3.backdate("b", "logs/2026/a.txt", null, Instant.parse("2020-01-01T00:00:00Z"));
        s3.drift("b", "logs/2026/a.txt", null);
        s3.deleteObject("b", "logs/2026/a.txt");
        assertThat(next()).extracting(MetaLogRecord::getKind).containsExactly(EventKind.TAGS_CHANGED,
                EventKind.OBJECT_WRITTEN, EventKind.OTHER, EventKind.OBJECT_DELETED);
    }

    @Test
    void shouldGiveEveryEventOfAVersionedKeyTheKeysAddressAndShard() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        s3.putObject("b", "k", 10, Map.of(), Map.of());
        next();
        String v2 = s3.putObject("b", "k", 20, Map.of(), Map.of());
        List<MetaLogRecord> write = next();
        assertThat(write).extracting(MetaLogRecord::getKind).containsExactly(EventKind.VERSION_CREATED,
                EventKind.OTHER, EventKind.LATEST_POINTER_FLIPPED);
        assertThat(write).extracting(MetaLogRecord::getLogicalKey).containsOnly("k");
        assertThat(write).extracting(MetaLogRecord::getShard).containsOnly(ShardFunction.standard().shardOf("b", "k"));

        String marker = s3.deleteObject("b", "k");
        assertThat(next()).extracting(MetaLogRecord::getKind).containsExactly(EventKind.DELETE_MARKER_CREATED,
                EventKind.OTHER, EventKind.LATEST_POINTER_FLIPPED);
        s3.deleteVersion("b", "k", v2);
        assertThat(next()).extracting(MetaLogRecord::getKind).containsExactly(EventKind.VERSION_DELETED);
        s3.deleteVersion("b", "k", marker);
        // The gateway moves the pointer before it deletes the version it named.
        assertThat(next()).extracting(MetaLogRecord::getKind).containsExactly(EventKind.LATEST_POINTER_FLIPPED,
                EventKind.VERSION_DELETED);
    }

    @Test
    void shouldSeeASuspendedWriteAsAWriteAndAPointerFlip() {
        s3.createBucket("b", false);
        s3.setVersioning("b", BucketVersioning.ENABLED);
        s3.putObject("b", "k", 10, Map.of(), Map.of());
        s3.setVersioning("b", BucketVersioning.SUSPENDED);
        next();
        s3.putObject("b", "k", 20, Map.of(), Map.of());
        assertThat(next()).extracting(MetaLogRecord::getKind).containsExactly(EventKind.OBJECT_WRITTEN, EventKind.OTHER,
                EventKind.LATEST_POINTER_FLIPPED);
    }

    @Test
    void shouldFileUploadsUnderTheirDestinationKey() {
        s3.createBucket("b", false);
        next();
        String id = s3.createUpload("b", "big/file.bin");
        s3.uploadPart("b", id, 1, 5);
        List<MetaLogRecord> started = next();
        assertThat(started).extracting(EventClassifierTest::describe).containsExactly("OTHER b/.uploads",
                "UPLOAD_INITIATED b/big/file.bin", "OTHER b/.uploads/" + id + "/0001.part");
        assertThat(started.get(1).getShard()).isEqualTo(ShardFunction.standard().shardOf("b", "big/file.bin"));
        s3.abortUpload("b", id);
        assertThat(next()).extracting(EventClassifierTest::describe).containsExactly(
                "OTHER b/.uploads/" + id + "/0001.part", "UPLOAD_ENDED b/big/file.bin");
    }

    @Test
    void shouldKeepEventsOutsideTheBucketsDirectoryAsOther() {
        SubscribeMetadataResponse elsewhere = SubscribeMetadataResponse.newBuilder().setDirectory("/etc")
                .setTsNs(1).setEventNotification(EventNotification.newBuilder()
                        .setNewEntry(Entry.newBuilder().setName("passwd"))).build();
        MetaLogRecord r = classifier.classify(elsewhere);
        assertThat(r.getKind()).isEqualTo(EventKind.OTHER);
        assertThat(r.getBucket()).isEmpty();
    }

    @Test
    void shouldKeepAnEventWithoutAnyEntryAsOtherAndNeverAsABucket() {
        MetaLogRecord r = classifier.classify(SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b")
                .setTsNs(9).setEventNotification(EventNotification.getDefaultInstance()).build(), 2);
        assertThat(r.getKind()).isEqualTo(EventKind.OTHER);
        assertThat(r.getBucket()).isEmpty();
        assertThat(r.getSeqAtTs()).isEqualTo(2);
        assertThat(r.getTsNs()).isEqualTo(9);
    }

    @Test
    void shouldKeepTheFilersEventInstanceWhenThereIsNothingToCut() {
        s3.createBucket("b", false);
        s3.putObject("b", "k", 10, Map.of(), Map.of());
        s3.deleteObject("b", "k");
        for (SubscribeMetadataResponse e : store.events(0)) {
            // The populator forwards the filer's own bytes only for an event the classifier left as it was.
            assertThat(classifier.classify(e).getEvent()).isSameAs(e.getEventNotification());
        }
    }

    @Test
    void shouldCutChunkListsToTheHeadChunk() {
        Entry big = Entry.newBuilder().setName("k").addChunks(FileChunk.newBuilder().setFileId("1,a"))
                .addChunks(FileChunk.newBuilder().setFileId("1,b")).addChunks(FileChunk.newBuilder().setFileId("1,c"))
                .build();
        MetaLogRecord r = classifier.classify(SubscribeMetadataResponse.newBuilder().setDirectory("/buckets/b")
                .setTsNs(7).setEventNotification(EventNotification.newBuilder().setNewEntry(big)
                        .setNewParentPath("/buckets/b")).build());
        assertThat(r.getEvent().getNewEntry().getChunksList()).extracting(FileChunk::getFileId).containsExactly("1,a");
        assertThat(r.getKind()).isEqualTo(EventKind.OBJECT_WRITTEN);
        assertThat(r.getTsNs()).isEqualTo(7);
    }
}
