package io.tidemark.objectprocessor;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.messages.DeadLetter;
import io.tidemark.messages.ObjectTask;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * What operators do with parked tasks: read them ({@code tidemark dlq list}), send chosen ones back to
 * {@code object-tasks} ({@code tidemark dlq replay}) or give them up ({@code tidemark dlq purge}). The dead-letter
 * topic is compacted and keyed per parked task, so a record stays until a replay or purge writes its tombstone:
 * what is listed is what is parked now. A replayed task keeps its action id and identity, and goes through the
 * object processor's checks again — the rules as they are now, then the gateway's identity and lock checks — so
 * replaying twice is harmless. Each replay and purge is recorded in {@code lifecycle-events}.
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

    /** Every task parked and not yet replayed or purged, in topic order (by partition, then offset). */
    public List<Parked> read(Duration timeout) {
        TopicSpec<String, DeadLetter> dlq = topics.objectTasksDlq();
        Map<String, Object> properties = KafkaClients.committedReader(config.consumerProperties());
        Map<String, Parked> live = new LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicReader.readToEnd(consumer, dlq.name(), consumer.partitionsFor(dlq.name(), timeout).size(), timeout,
                    r -> {
                        String key = dlq.keySerde().deserializer().deserialize(dlq.name(), r.key());
                        // A key is one parked task on one partition; its latest record says whether it still is.
                        String slot = r.partition() + "/" + key;
                        if (r.value() == null) {
                            live.remove(slot);
                        } else {
                            live.put(slot, new Parked(r.partition(), r.offset(), key,
                                    dlq.valueSerde().deserializer().deserialize(dlq.name(), r.value())));
                        }
                    });
        }
        List<Parked> parked = new ArrayList<>(live.values());
        parked.sort(Comparator.comparingInt(Parked::partition).thenComparingLong(Parked::offset));
        return parked;
    }

    /**
     * Sends the chosen parked tasks back to {@code object-tasks}, each on its own partition, records it, and then
     * removes them from the dead-letter topic. A crash between the two leaves a task both replayed and parked: a
     * second replay of it is answered NOOP.
     */
    public Replay replay(List<Parked> chosen, Clock clock) throws InterruptedException, ExecutionException {
        List<Parked> sent = new ArrayList<>();
        List<Parked> unreadable = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (Parked p : chosen) {
                if (p.letter().task() == null) {
                    unreadable.add(p);
                    continue;
                }
                ObjectTask task = replayed(p.letter().task());
                acks.add(producer.send(topics.objectTasks().record(p.partition(), lane(p), task)));
                acks.add(producer.send(topics.lifecycleEvents().record(p.partition(), lane(p), TaskRecorder.event(task,
                        "REPLAYED", "replayed from " + topics.objectTasksDlq().name() + "/" + p.partition() + "@"
                                + p.offset() + " after " + p.letter().outcome(), p.letter().attempts(),
                        clock.instant()))));
                sent.add(p);
            }
            awaitAll(acks);
            awaitAll(sent.stream().map(p -> producer.send(tombstone(p))).toList());
        }
        return new Replay(sent, unreadable);
    }

    /**
     * Gives the chosen parked records up for good: removed from the dead-letter topic, each purge recorded in
     * {@code lifecycle-events} (records never readable as tasks are removed without one).
     */
    public List<Parked> purge(List<Parked> chosen, Clock clock) throws InterruptedException, ExecutionException {
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
            List<Future<RecordMetadata>> acks = new ArrayList<>();
            for (Parked p : chosen) {
                if (p.letter().task() != null) {
                    acks.add(producer.send(topics.lifecycleEvents().record(p.partition(), lane(p), TaskRecorder.event(
                            p.letter().task(), "PURGED", "purged from " + topics.objectTasksDlq().name() + "/"
                                    + p.partition() + "@" + p.offset() + " after " + p.letter().outcome(),
                            p.letter().attempts(), clock.instant()))));
                }
            }
            awaitAll(acks);
            awaitAll(chosen.stream().map(p -> producer.send(tombstone(p))).toList());
        }
        return chosen;
    }

    /** Parked records written before {@code before}, by when their task last failed. */
    public static boolean parkedBefore(Parked p, Instant before) {
        return p.letter().lastFailure() != null && p.letter().lastFailure().isBefore(before);
    }

    private KafkaProducer<byte[], byte[]> producer() {
        return new KafkaProducer<>(KafkaClients.idempotentProducer(config.producerProperties()),
                new ByteArraySerializer(),
                new ByteArraySerializer());
    }

    private ProducerRecord<byte[], byte[]> tombstone(Parked p) {
        TopicSpec<String, DeadLetter> dlq = topics.objectTasksDlq();
        return new ProducerRecord<>(dlq.name(), p.partition(), dlq.keySerde().serializer().serialize(dlq.name(), p.key()),
                null);
    }

    /**
     * The object's key as {@code object-tasks} keys it: the dead-letter key less its {@code #actionId} (records parked
     * before dead letters had keys of their own carry the object's key alone).
     */
    private static String lane(Parked p) {
        String suffix = "#" + p.letter().task().actionId();
        return p.key().endsWith(suffix) ? p.key().substring(0, p.key().length() - suffix.length()) : p.key();
    }

    private static void awaitAll(List<Future<RecordMetadata>> acks) throws InterruptedException, ExecutionException {
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
    }

    private static ObjectTask replayed(ObjectTask task) {
        ObjectTask.Details d = task.details();
        return new ObjectTask(task.actionId(), task.action(), task.kind(), task.target(),
                d == null ? null : d.from("dlq-replay"));
    }
}
