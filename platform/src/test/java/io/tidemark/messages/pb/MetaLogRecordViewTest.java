package io.tidemark.messages.pb;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.FieldDescriptor;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecordView;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import org.junit.jupiter.api.Test;

/** The meta-log record's wire view writes exactly what the record it shadows reads. */
class MetaLogRecordViewTest {

    private static final EventNotification EVENT = EventNotification.newBuilder()
            .setNewEntry(Entry.newBuilder().setName("k").putExtended("X-Amz-Tagging-env",
                    ByteString.copyFromUtf8("prod")))
            .setNewParentPath("/buckets/b").build();

    @Test
    void shouldShadowEveryFieldOfTheRecordWithItsNumberAndWireType() {
        for (FieldDescriptor field : MetaLogRecordView.getDescriptor().getFields()) {
            FieldDescriptor shadowed = MetaLogRecord.getDescriptor().findFieldByNumber(field.getNumber());
            assertThat(shadowed).as(field.getName()).isNotNull();
            assertThat(shadowed.getName()).isEqualTo(field.getName());
            assertThat(shadowed.isRepeated()).isEqualTo(field.isRepeated());
            // an embedded message is length-delimited like the bytes that stand for it
            assertThat(shadowed.getLiteType().getWireType()).isEqualTo(field.getLiteType().getWireType());
        }
        assertThat(MetaLogRecordView.getDescriptor().getFields())
                .hasSameSizeAs(MetaLogRecord.getDescriptor().getFields());
    }

    @Test
    void shouldWriteARecordThatParsesAsTheMetaLogRecord() throws Exception {
        MetaLogRecordView view = MetaLogRecordView.newBuilder().setTsNs(9).setDirectory("/buckets/b")
                .setEvent(EVENT.toByteString()).setBucket("b").setLogicalKey("k").setKindValue(3).setShard(5)
                .setSeqAtTs(1).build();
        MetaLogRecord record = MetaLogRecord.parseFrom(view.toByteArray());
        assertThat(record.getEvent()).isEqualTo(EVENT);
        assertThat(record.getBucket()).isEqualTo("b");
        assertThat(record.getKindValue()).isEqualTo(3);
        assertThat(record.getSeqAtTs()).isEqualTo(1);
    }
}
