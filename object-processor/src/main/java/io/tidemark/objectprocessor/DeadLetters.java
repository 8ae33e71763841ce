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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
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

    /** Parked tasks replayed in one transaction: a bound on how long one stays open, whatever the batch. */
    static final int REPLAY_BATCH = 500;

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
    private final Function<Map<String, Object>, Producer<byte[], byte[]>> producers;

    public DeadLetters(TidemarkConfig config) {
        this(config, properties -> new KafkaProducer<>(properties, new ByteArraySerializer(),
                new ByteArraySerializer()));
    }

    /** @param producers makes a producer of the given properties (a test's may watch what is sent) */
    DeadLetters(TidemarkConfig config, Function<Map<String, Object>, Producer<byte[], byte[]>> producers) {
        this.config = config;
        this.topics = TopicRegistry.from(config);
        this.producers = producers;
    }

    /**
     * How many tasks are parked now: the keys whose latest record is not a tombstone. Kafka fetches whole records, so
     * it reads the whole topic; it decodes only the keys.
     */
    public long countParked(Duration timeout) {
        return live(timeout, (r, key) -> Boolean.TRUE).size();
    }

    /** Every task parked and not yet replayed or purged, in topic order (by partition, then offset). */
    public List<Parked> read(Duration timeout) {
        TopicSpec<String, DeadLetter> dlq = topics.objectTasksDlq();
        List<Parked> parked = new ArrayList<>(live(timeout, (r, key) -> new Parked(r.partition(), r.offset(), key,
                dlq.valueSerde().deserializer().deserialize(dlq.name(), r.value()))).values());
        parked.sort(Comparator.comparingInt(Parked::partition).thenComparingLong(Parked::offset));
        return parked;
    }

    /**
     * The dead-letter topic read to its end: per parked task, what {@code value} makes of its latest record. A key is
     * one parked task on one partition; its latest record says whether it still is (a tombstone: replayed or purged).
     */
    private <V> Map<String, V> live(Duration timeout, BiFunction<ConsumerRecord<byte[], byte[]>, String, V> value) {
        TopicSpec<String, DeadLetter> dlq = topics.objectTasksDlq();
        Map<String, Object> properties = KafkaClients.committedReader(config.consumerProperties());
        Map<String, V> live = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(properties, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            TopicReader.readToEnd(consumer, dlq.name(), consumer.partitionsFor(dlq.name(), timeout).size(), timeout,
                    r -> {
                        String key = dlq.keySerde().deserializer().deserialize(dlq.name(), r.key());
                        String slot = r.partition() + "/" + key;
                        if (r.value() == null) {
                            live.remove(slot);
                        } else {
                            live.put(slot, value.apply(r, key));
                        }
                    });
        }
        return live;
    }

    /**
     * Sends the chosen parked tasks back to {@code object-tasks}, each on its own partition, records it, and removes
     * it from the dead-letter topic — all three in one Kafka transaction (per batch of {@value #REPLAY_BATCH}).
     *
     * <p>A replayed task keeps its action id, so if its cause persists it is parked again under the same dead-letter
     * key. Its tombstone must therefore land before that: the processor reads {@code object-tasks} committed only, so
     * it sees the task when the transaction commits — after the tombstone, which is part of it — and parks it again
     * after that, where compaction keeps it. (Tombstones written after the tasks' acknowledgements erased every task
     * parked again meanwhile: a large replay with its cause unfixed lost work.) A crash leaves no half: the transaction
     * aborts, and the letters are still parked, unreplayed.
     */
    public Replay replay(List<Parked> chosen, Clock clock) throws InterruptedException, ExecutionException {
        List<Parked> sent = new ArrayList<>();
        List<Parked> unreadable = new ArrayList<>();
        List<Parked> replayable = new ArrayList<>();
        for (Parked p : chosen) {
            (p.letter().task() == null ? unreadable : replayable).add(p);
        }
        if (replayable.isEmpty()) {
            return new Replay(sent, unreadable);
        }
        try (Producer<byte[], byte[]> producer = transactionalProducer()) {
            producer.initTransactions();
            for (int from = 0; from < replayable.size(); from += REPLAY_BATCH) {
                List<Parked> batch = replayable.subList(from, Math.min(replayable.size(), from + REPLAY_BATCH));
                producer.beginTransaction();
                try {
                    List<Future<RecordMetadata>> acks = new ArrayList<>();
                    for (Parked p : batch) {
                        ObjectTask task = replayed(p.letter().task());
                        acks.add(producer.send(tombstone(p)));
                        acks.add(producer.send(topics.objectTasks().record(p.partition(), lane(p), task)));
                        acks.add(producer.send(topics.lifecycleEvents().record(p.partition(), lane(p),
                                TaskRecorder.event(task, "REPLAYED", "replayed from " + topics.objectTasksDlq().name()
                                        + "/" + p.partition() + "@" + p.offset() + " after " + p.letter().outcome(),
                                        p.letter().attempts(), clock.instant()))));
                    }
                    producer.commitTransaction();
                    awaitAll(acks);
                } catch (KafkaException e) {
                    abort(producer, e);
                    throw e;
                }
                sent.addAll(batch);
            }
        }
        return new Replay(sent, unreadable);
    }

    /** Aborts a failed replay batch, unless the producer can no longer do even that (then its close aborts it). */
    private static void abort(Producer<byte[], byte[]> producer, KafkaException cause) {
        try {
            producer.abortTransaction();
        } catch (KafkaException e) {
            cause.addSuppressed(e);
        }
    }

    /**
     * Gives the chosen parked records up for good: removed from the dead-letter topic, each purge recorded in
     * {@code lifecycle-events} (records never readable as tasks are removed without one).
     */
    public List<Parked> purge(List<Parked> chosen, Clock clock) throws InterruptedException, ExecutionException {
        try (Producer<byte[], byte[]> producer = producer()) {
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

    private Producer<byte[], byte[]> producer() {
        return producers.apply(KafkaClients.idempotentProducer(config.producerProperties()));
    }

    /**
     * A producer whose transactional id is the dead-letter topic's: two replays at once fence each other (the first
     * one's open batch is aborted, its letters stay parked), so one cannot tombstone a letter the other re-parked; and
     * a replay that crashed has its open transaction aborted by the next one's start rather than at its timeout. One
     * request in flight, as every producer here (KafkaClients#idempotentProducer, KAFKA-15591).
     */
    private Producer<byte[], byte[]> transactionalProducer() {
        Map<String, Object> properties = KafkaClients.transactionalProducer(config.producerProperties(),
                topics.objectTasksDlq().name() + ".replay");
        properties.putIfAbsent(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return producers.apply(properties);
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
                d == null ? null : d.from(ObjectTask.FROM_DLQ_REPLAY));
    }
}
