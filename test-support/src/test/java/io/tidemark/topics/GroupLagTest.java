package io.tidemark.topics;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.testsupport.ClusterNamespace;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.testsupport.LocalClusterTest;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * The two figures of a group's position on a topic written in transactions, on a real broker: the consumer-groups
 * tool's lag, which counts commit markers and records of aborted or open transactions, and the backlog, which counts
 * only the records a read-committed member has still to process.
 */
@LocalClusterTest
class GroupLagTest {

    @Test
    void shouldCountNoBacklogWhereOnlyCommitMarkersAndAbortedRecordsRemain(LocalCluster cluster, ClusterNamespace ns)
            throws Exception {
        String topic = ns.topicPrefix() + "group-lag";
        String group = ns.topicPrefix() + "group";
        Map<String, Object> clients = Map.of("bootstrap.servers", cluster.kafkaBootstrapServers());
        try (Admin admin = Admin.create(clients)) {
            admin.createTopics(List.of(new NewTopic(topic, 3, (short) 1))).all().get();
            try (KafkaProducer<byte[], byte[]> producer = transactional(cluster, ns.topicPrefix() + "writer")) {
                producer.initTransactions();
                // Partition 0: three records and their marker (offsets 0-3), then an aborted pair and its marker (4-6).
                inTransaction(producer, topic, 0, 3, true);
                inTransaction(producer, topic, 0, 2, false);
                // Partition 1: two committed records and their marker (0-2).
                inTransaction(producer, topic, 1, 2, true);
            }
            // The group processed all three of partition 0's records and committed past them, not past the marker;
            // it never committed on partition 1.
            admin.alterConsumerGroupOffsets(group, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(3)))
                    .all().get();
            try (KafkaProducer<byte[], byte[]> open = transactional(cluster, ns.topicPrefix() + "open")) {
                // Partition 1 gets a record in a transaction still open when the figures are read: not work yet.
                open.initTransactions();
                open.beginTransaction();
                open.send(new ProducerRecord<>(topic, 1, null, new byte[] {9})).get();

                List<GroupLag.Partition> counted = new GroupLag(admin, Map.copyOf(clients)).partitions(group,
                        List.of(topic));
                assertThat(counted).extracting(GroupLag.Partition::partition, GroupLag.Partition::lag,
                        GroupLag.Partition::backlog, GroupLag.Partition::backlogCounted).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(0, 4L, 0L, true),
                        org.assertj.core.groups.Tuple.tuple(1, 4L, 2L, true),
                        org.assertj.core.groups.Tuple.tuple(2, 0L, 0L, true));
                assertThat(new GroupLag(admin, Map.copyOf(clients)).backlog(group, List.of(topic))).isEqualTo(2);
                assertThat(new GroupLag(admin, Map.copyOf(clients)).total(group, List.of(topic))).as("the tool's LAG")
                        .isEqualTo(8);
                // Its committed offsets, summed: 3 on partition 0, none on the others (a log start moved by retention
                // is no progress). It grows by what the group finishes: its rate is the pace a backlog drains at.
                assertThat(new GroupLag(admin).totals(group, List.of(topic))).isEqualTo(new GroupLag.Totals(8, 3));

                // Without a consumer to count with, the backlog is the offset difference up to the last stable
                // offset: markers and aborted records in it, the open transaction not.
                assertThat(new GroupLag(admin).partitions(group, List.of(topic))).extracting(
                        GroupLag.Partition::backlog, GroupLag.Partition::backlogCounted).containsExactly(
                        org.assertj.core.groups.Tuple.tuple(4L, false),
                        org.assertj.core.groups.Tuple.tuple(3L, false),
                        org.assertj.core.groups.Tuple.tuple(0L, true));
                open.abortTransaction();
            }
        }
    }

    private static KafkaProducer<byte[], byte[]> transactional(LocalCluster cluster, String id) {
        return new KafkaProducer<>(Map.of("bootstrap.servers", cluster.kafkaBootstrapServers(), "transactional.id", id),
                new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static void inTransaction(KafkaProducer<byte[], byte[]> producer, String topic, int partition, int records,
                                      boolean commit) throws Exception {
        producer.beginTransaction();
        for (int i = 0; i < records; i++) {
            producer.send(new ProducerRecord<>(topic, partition, null, new byte[] {(byte) i})).get();
        }
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
    }
}
