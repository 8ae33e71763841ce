package io.tidemark.objectprocessor;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.DeadLetter;
import io.tidemark.messages.ObjectTask;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What operators do with parked tasks: read them ({@code tidemark dlq list}) and send chosen ones back to
 * {@code object-tasks} ({@code tidemark dlq replay}). A replayed task keeps its action id and identity, so the
 * gateway checks it again as it would have the first time; replaying twice is harmless (the second delete finds
 * the identity gone and answers NOOP). Each replay is recorded in {@code lifecycle-events}.
 */
public final class DeadLetters {

    /** One parked record and where it sits in the dead-letter topic. */
    public record Parked(int partition, long offset, String key, DeadLetter letter) {

        public String bucket() {
            return letter.task() == null ? null : letter.task().target().bucket();
        }
    }

    /** What a replay did: the tasks sent back, and the parked records it could not send (not readable as tasks). */
    public record Replay(List<Parked> sent, List<Parked> unreadable) {
    }

    private final TidemarkConfig config;
    private final TopicRegistry topics;

    public DeadLetters(TidemarkConfig config) {
        this.config = config;
        this.topics = TopicRegistry.from(config);
    }

    /** Every parked record, in topic order (by partition, then offset). */
    public List<Parked> read(Duration timeout) {
        TopicSpec<String, DeadLetter> dlq = topics.objectTasksDlq();
        Map<String, Object> properties = config.consumerProperties();
        properties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        properties.remove(ConsumerConfig.GROUP_ID_CONFIG);
        List<Parked> parked = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicReader.readToEnd(consumer, dlq.name(), consumer.partitionsFor(dlq.name(), timeout).size(), timeout,
                    r -> parked.add(new Parked(r.partition(), r.offset(),
                            dlq.keySerde().deserializer().deserialize(dlq.name(), r.key()),
                            dlq.valueSerde().deserializer().deserialize(dlq.name(), r.value()))));
        }
        parked.sort((a, b) -> a.partition != b.partition ? Integer.compare(a.partition, b.partition)
                : Long.compare(a.offset, b.offset));
        return parked;
    }

    /** Sends the chosen parked tasks back to {@code object-tasks}, each on its own partition, and records it. */
    public Replay replay(List<Parked> chosen, Clock clock) throws InterruptedException, ExecutionException {
        List<Parked> sent = new ArrayList<>();
        List<Parked> unreadable = new ArrayList<>();
        Map<String, Object> properties = ObjectProcessorService.producerProperties(config);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (Parked p : chosen) {
                if (p.letter().task() == null) {
                    unreadable.add(p);
                    continue;
                }
                ObjectTask task = replayed(p.letter().task());
                acks.add(producer.send(topics.objectTasks().record(p.partition(), p.key(), task)));
                acks.add(producer.send(topics.lifecycleEvents().record(p.partition(), p.key(), TaskRecorder.event(task,
                        "REPLAYED", "replayed from " + topics.objectTasksDlq().name() + "/" + p.partition() + "@"
                                + p.offset() + " after " + p.letter().outcome(), p.letter().attempts(),
                        clock.instant()))));
                sent.add(p);
            }
            for (Future<RecordMetadata> ack : acks) {
                ack.get();
            }
        }
        return new Replay(sent, unreadable);
    }

    private static ObjectTask replayed(ObjectTask task) {
        ObjectTask.Details d = task.details();
        ObjectTask.Details details = d == null ? null : new ObjectTask.Details(d.expectedIdentity(), d.ruleId(),
                d.ruleHash(), d.dueAt(), "dlq-replay", d.scanId());
        return new ObjectTask(task.actionId(), task.action(), task.kind(), task.target(), details);
    }
}
