package io.tidemark.populator;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.EventKind;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/** What a new term reads as the populator's committed position, against a real broker. */
@LocalClusterTest
class CommittedStateTest {

    private static MetaLogRecord record(long tsNs, int shard) {
        return MetaLogRecord.newBuilder().setTsNs(tsNs).setBucket("b").setLogicalKey("k" + tsNs).setShard(shard)
                .setKind(EventKind.OTHER).build();
    }

    @Test
    void shouldTakeOnlyThePopulatorsOwnMetaLogRecordsAsItsTailAndCountTheOthers(LocalCluster cluster,
                                                                              ClusterNamespace ns) throws Exception {
        TidemarkConfig config = new TidemarkConfig(Map.of("kafka.bootstrap.servers", cluster.kafkaBootstrapServers(),
                "topic.prefix", ns.topicPrefix() + "committed.", "shard.bits", "1"));
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) 1).ensure(topics.all());
        }
        try (TransactionalPublisher populator = TransactionalPublisher.open(config.producerProperties(),
                ns.topicPrefix() + "committed-populator", topics)) {
            populator.begin();
            populator.metaLog(record(100, 0));
            populator.metaLog(record(110, 1));
            populator.commit(new PopulatorCheckpoint(90, 1, 5, 0));
        }
        try (KafkaProducer<byte[], byte[]> tool = new KafkaProducer<>(config.producerProperties(),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            // A populator from before the writer field marked its records with a header: still its own.
            tool.send(new ProducerRecord<>(topics.metaLog().name(), 0, null, "b/y".getBytes(),
                    record(120, 0).toByteArray(), List.of(new RecordHeader(
                    TransactionalPublisher.LEGACY_WRITER_HEADER, TransactionalPublisher.LEGACY_WRITER)))).get();
            // Another writer (a tool, a mis-pointed service) appends newer records to both partitions, well-formed
            // or not.
            for (MetaLogRecord foreign : List.of(record(500, 0), record(600, 1), record(700, 1))) {
                tool.send(new ProducerRecord<>(topics.metaLog().name(), foreign.getShard(), "b/x".getBytes(),
                        foreign.toByteArray())).get();
            }
            tool.send(new ProducerRecord<>(topics.metaLog().name(), 1, "b/z".getBytes(),
                    "not a meta-log record".getBytes())).get();
        }

        CommittedState state = CommittedState.read(config.consumerProperties(), topics, Duration.ofSeconds(30));

        assertThat(state.metaLogTail()).contains(new CommittedState.MetaLogPosition(120, 0));
        assertThat(state.foreignMetaLogRecords()).isEqualTo(4);
        assertThat(state.checkpoint().orElseThrow().tsNs()).isEqualTo(90);
    }
}
