package io.tidemark.cli.objectprocessor;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.messages.ObjectTask;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicRegistry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Benchmarks' feed for the object processor on its own: expiration tasks of live objects, straight to object-tasks. */
public final class ExpirationTasks {

    private ExpirationTasks() {
    }

    /**
     * One expiration task per key, with the object's identity as it is now, on the key's shard. The tasks and the
     * producer are made before anything is sent; returns the instant of the first send, where a measurement of
     * the processor alone starts.
     */
    public static Instant publish(TidemarkConfig config, TopicRegistry topics, S3Gateway s3, String bucket,
                                  List<String> keys) {
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (String key : keys) {
            EntryIdentity id = LifecycleDeleteHandler.identity(s3.latest(bucket, key).orElseThrow().entry());
            ObjectTask task = new ObjectTask(bucket + "/" + key, "expire", "EXPIRATION_DAYS",
                    new ObjectTask.Target(bucket, key, ""), new ObjectTask.Details(
                    ObjectTask.ExpectedIdentity.of(id), "bench", "0000000000000000", Instant.now(), "bench", null));
            String recordKey = ShardPartitioner.key(bucket, key);
            records.add(topics.objectTasks().record(
                    ShardPartitioner.shardOf(recordKey, topics.objectTasks().partitions()), recordKey, task));
        }
        Map<String, Object> producerProperties = ObjectProcessorService.producerProperties(config);
        producerProperties.put("linger.ms", 20);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(producerProperties, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            // Metadata first, so that the first send does not wait for it.
            producer.partitionsFor(topics.objectTasks().name());
            Instant first = Instant.now();
            records.forEach(producer::send);
            producer.flush();
            return first;
        }
    }
}
