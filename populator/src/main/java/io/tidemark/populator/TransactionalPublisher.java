package io.tidemark.populator;

import com.google.protobuf.ByteString;
import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.BucketTask;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecordView;
import io.tidemark.messages.pb.MetaLogProto.MetaLogWriter;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Everything the populator writes to Kafka, one transaction per batch: meta-log records, bucket configs and
 * tombstones, recovery tasks and, last, the checkpoint that covers them. The transactional id is the same for
 * every populator instance, so a new leader's {@link #open} fences the producer of any previous one: a leader that
 * lost its ZooKeeper session cannot commit anything once its successor has started.
 */
public final class TransactionalPublisher implements AutoCloseable {

    /**
     * The header that marked the populator's own meta-log records before {@link MetaLogWriter#POPULATOR} did: a term
     * reading a meta-log written by an earlier version still takes them as its own (see {@link CommittedState}).
     */
    static final String LEGACY_WRITER_HEADER = "tidemark-writer";
    static final byte[] LEGACY_WRITER = "populator".getBytes(StandardCharsets.UTF_8);

    /** The largest meta-log record sent whole, below the producer's and broker's default 1 MiB limits. */
    public static final int DEFAULT_MAX_RECORD_BYTES = 1_000_000;

    private final Producer<byte[], byte[]> producer;
    private final TopicRegistry topics;
    private final int maxRecordBytes;
    private AutoCloseable alsoClose = () -> { };
    private long begunAt;

    TransactionalPublisher(Producer<byte[], byte[]> producer, TopicRegistry topics) {
        this(producer, topics, DEFAULT_MAX_RECORD_BYTES);
    }

    TransactionalPublisher(Producer<byte[], byte[]> producer, TopicRegistry topics, int maxRecordBytes) {
        this.producer = producer;
        this.topics = topics;
        this.maxRecordBytes = maxRecordBytes;
    }

    /** A producer with the populator's transactional id, ready for its first transaction. */
    public static TransactionalPublisher open(Map<String, Object> producerProperties, String transactionalId,
                                              TopicRegistry topics) {
        return open(producerProperties, transactionalId, topics, DEFAULT_MAX_RECORD_BYTES);
    }

    public static TransactionalPublisher open(Map<String, Object> producerProperties, String transactionalId,
                                              TopicRegistry topics, int maxRecordBytes) {
        Map<String, Object> props = new HashMap<>();
        // Throughput defaults an operator may override through kafka.producer.*.
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        props.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                (int) PopulatorSettings.DEFAULT_TRANSACTION_TIMEOUT.toMillis());
        // A bucket's configuration record carries its lifecycle XML (up to 1 MiB as S3 allows it) in JSON.
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
        props.putAll(producerProperties);
        // Exactly-once and the shard layout are not negotiable.
        props = KafkaClients.transactionalProducer(props, transactionalId);
        props.put(ProducerConfig.PARTITIONER_CLASS_CONFIG, ShardPartitioner.class.getName());
        props.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, "tidemark-populator");
        Producer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer());
        try {
            producer.initTransactions();
        } catch (RuntimeException e) {
            producer.close(Duration.ZERO);
            throw e;
        }
        return new TransactionalPublisher(producer, topics, maxRecordBytes);
    }

    public Producer<byte[], byte[]> producer() {
        return producer;
    }

    /** Something to close with the producer, such as its metrics binding. */
    public void closing(AutoCloseable resource) {
        alsoClose = resource;
    }

    public void begin() {
        producer.beginTransaction();
        begunAt = System.nanoTime();
    }

    /** How long the transaction begun last has been open. */
    public Duration openFor() {
        return Duration.ofNanos(System.nanoTime() - begunAt);
    }

    /** What became of a meta-log record. */
    public enum Sent { WHOLE, SLIMMED, PARKED }

    /** On partition = the record's ShardID, which the classifier computed with the partitioner's own function. */
    public Sent metaLog(MetaLogRecord record) {
        return metaLog(record, null);
    }

    /**
     * As {@link #metaLog(MetaLogRecord)}; {@code encodedEvent}, when given, is the filer's own encoding of the
     * record's event and is written as it is (through the wire view) rather than encoded again. A record over
     * {@code populator.record.max.bytes} is slimmed ({@link OversizedRecords}); one that cannot be made to fit is not
     * sent (parked), so it can never hold up the events after it.
     */
    public Sent metaLog(MetaLogRecord record, ByteString encodedEvent) {
        String topic = topics.metaLog().name();
        byte[] key = topics.metaLog().keySerde().serializer().serialize(topic,
                ShardPartitioner.key(record.getBucket(), record.getLogicalKey()));
        byte[] value = encodedEvent == null ? topics.metaLog().valueSerde().serializer().serialize(topic, marked(record))
                : encoded(record, encodedEvent);
        Sent sent = Sent.WHOLE;
        if (value.length > maxRecordBytes) {
            var slim = OversizedRecords.fit(marked(record), maxRecordBytes);
            if (slim.isEmpty()) {
                return Sent.PARKED;
            }
            value = topics.metaLog().valueSerde().serializer().serialize(topic, slim.get());
            sent = Sent.SLIMMED;
        }
        producer.send(new ProducerRecord<>(topic, record.getShard(), null, key, value));
        return sent;
    }

    /** The record marked as the populator's own: only such records may move its resume position. */
    private static MetaLogRecord marked(MetaLogRecord record) {
        return record.getWriter() == MetaLogWriter.POPULATOR ? record
                : record.toBuilder().setWriter(MetaLogWriter.POPULATOR).build();
    }

    /**
     * The record's bytes with its event as the filer encoded it, marked as the populator's; they parse as the same
     * {@link MetaLogRecord} with its writer set.
     */
    static byte[] encoded(MetaLogRecord record, ByteString encodedEvent) {
        return MetaLogRecordView.newBuilder().setTsNs(record.getTsNs()).setDirectory(record.getDirectory())
                .setEvent(encodedEvent).setBucket(record.getBucket()).setLogicalKey(record.getLogicalKey())
                .setKindValue(record.getKindValue()).setShard(record.getShard()).setSeqAtTs(record.getSeqAtTs())
                .setWriter(MetaLogWriter.POPULATOR)
                .build().toByteArray();
    }

    /** The bucket's configuration, or its tombstone when {@code config} is {@code null}. */
    public void bucketConfig(String bucket, BucketConfig config) {
        send(topics.bucketConfigs(), bucket, config);
    }

    public void bucketTask(BucketTask task) {
        send(topics.bucketTasks(), task.target().bucket(), task);
    }

    /** Writes the checkpoint and commits everything sent since {@link #begin}. */
    public void commit(PopulatorCheckpoint checkpoint) {
        send(topics.populatorCheckpoint(), PopulatorCheckpoint.KEY, checkpoint);
        producer.commitTransaction();
    }

    public void abort() {
        producer.abortTransaction();
    }

    private <V> void send(TopicSpec<String, V> topic, String key, V value) {
        byte[] k = topic.keySerde().serializer().serialize(topic.name(), key);
        byte[] v = value == null ? null : topic.valueSerde().serializer().serialize(topic.name(), value);
        producer.send(new ProducerRecord<>(topic.name(), k, v));
    }

    @Override
    public void close() {
        try {
            alsoClose.close();
        } catch (Exception e) {
            // Only the metrics binding: the producer still closes.
        }
        producer.close(Duration.ofSeconds(5));
    }
}
