package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.S3Layout;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.seaweed.pb.FilerProto.FileChunk;
import io.tidemark.seaweed.pb.FilerProto.FuseAttributes;
import org.junit.jupiter.api.Test;

class OversizedRecordsTest {

    private static Entry bucket(int xmlBytes) {
        return Entry.newBuilder().setName("b").setIsDirectory(true)
                .putExtended(S3Layout.LIFECYCLE_XML, ByteString.copyFromUtf8("x".repeat(xmlBytes)))
                .putExtended(S3Layout.VERSIONING, ByteString.copyFromUtf8("Enabled")).build();
    }

    private static MetaLogRecord record(Entry before, Entry after, EventKind kind) {
        return MetaLogRecord.newBuilder().setBucket("b").setDirectory("/buckets").setKind(kind)
                .setEvent(EventNotification.newBuilder().setOldEntry(before).setNewEntry(after)).build();
    }

    @Test
    void shouldLeaveARecordThatFitsAsItIs() {
        MetaLogRecord small = record(bucket(10), bucket(20), EventKind.BUCKET_CONFIG_CHANGED);
        assertThat(OversizedRecords.fit(small, 1_000)).contains(small);
    }

    @Test
    void shouldDropTheLifecycleXmlOfABucketEventFirstAndFlagIt() {
        MetaLogRecord big = record(bucket(600_000), bucket(600_000), EventKind.BUCKET_CONFIG_CHANGED);

        MetaLogRecord slim = OversizedRecords.fit(big, 1_000_000).orElseThrow();

        assertThat(slim.getSlimmed()).isTrue();
        assertThat(slim.getSerializedSize()).isLessThanOrEqualTo(1_000_000);
        assertThat(slim.getEvent().getNewEntry().getExtendedMap()).containsKey(S3Layout.VERSIONING)
                .doesNotContainKey(S3Layout.LIFECYCLE_XML);
    }

    @Test
    void shouldKeepTheIdentityOfTheNewEntryOfAnObjectEvent() {
        Entry object = Entry.newBuilder().setName("k").setContent(ByteString.copyFrom(new byte[900_000]))
                .setAttributes(FuseAttributes.newBuilder().setMtime(1_700_000_000L).setFileSize(900_000))
                .addChunks(FileChunk.newBuilder().setFileId("3,01ab"))
                .putExtended("X-Amz-Tagging-class", ByteString.copyFromUtf8("scratch")).build();
        MetaLogRecord big = record(object, object, EventKind.OBJECT_WRITTEN);

        MetaLogRecord slim = OversizedRecords.fit(big, 100_000).orElseThrow();

        assertThat(slim.getSlimmed()).isTrue();
        assertThat(EntryIdentity.of(slim.getEvent().getNewEntry())).isEqualTo(EntryIdentity.of(object));
    }

    @Test
    void shouldGiveUpOnARecordThatCannotBeMadeSmallEnough() {
        Entry hugeName = Entry.newBuilder().setName("n".repeat(50_000)).build();
        assertThat(OversizedRecords.fit(record(hugeName, hugeName, EventKind.OTHER), 10_000)).isEmpty();
    }
}
