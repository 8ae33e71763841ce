package io.tidemark.devtools.bench;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.s3.LifecycleDeleteHandler;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.messages.ObjectTask;
import io.tidemark.seaweed.EntryIdentity;
import io.tidemark.seaweed.S3Entries;
import io.tidemark.topics.KafkaClients;
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

    /**
     * The rule the tasks are decided under, put on the bucket first: the object processor checks every task against
     * the bucket's rules as they are now, so a bench measures that check too. Everything has been due since 2000.
     */
    static final String RULE_ID = "bench-expire-all";
    static final String RULES = "<LifecycleConfiguration><Rule><ID>" + RULE_ID + "</ID><Filter><Prefix></Prefix>"
            + "</Filter><Status>Enabled</Status><Expiration><Date>2000-01-01T00:00:00Z</Date></Expiration></Rule>"
            + "</LifecycleConfiguration>";

    private ExpirationTasks() {
    }

    /**
     * One expiration task per key, with the object's identity as it is now, on the key's shard. The tasks and the
     * producer are made before anything is sent; returns the instant of the first send, where a measurement of
     * the processor alone starts.
     */
    public static Instant publish(TidemarkConfig config, TopicRegistry topics, S3Gateway s3, String bucket,
                                  List<String> keys) {
        s3.putLifecycle(bucket, RULES);
        String ruleHash;
        try {
            ruleHash = config.ruleReader().read(RULES).rule(RULE_ID).orElseThrow().hash().toHex();
        } catch (LifecycleConfigException e) {
            throw new IllegalStateException(e);
        }
        List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (String key : keys) {
            var entry = s3.latest(bucket, key).orElseThrow().entry();
            EntryIdentity id = LifecycleDeleteHandler.identity(entry);
            ObjectTask task = new ObjectTask(bucket + "/" + key, "expire", "EXPIRATION_DATE",
                    new ObjectTask.Target(bucket, key, ""), new ObjectTask.Details(
                    ObjectTask.ExpectedIdentity.of(id), RULE_ID, ruleHash, Instant.parse("2000-01-01T00:00:00Z"),
                    "bench", null, S3Entries.modTime(entry), null));
            String recordKey = ShardPartitioner.key(bucket, key);
            records.add(topics.objectTasks().record(
                    ShardPartitioner.shardOf(recordKey, topics.objectTasks().partitions()), recordKey, task));
        }
        Map<String, Object> producerProperties = KafkaClients.idempotentProducer(config.producerProperties());
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
