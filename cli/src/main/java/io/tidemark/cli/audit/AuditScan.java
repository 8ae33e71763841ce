package io.tidemark.cli.audit;

import io.tidemark.messages.LifecycleEvent;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.ShardPartitioner;
import io.tidemark.topics.TopicSpec;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads what {@code tidemark audit} asks for from {@code lifecycle-events}, reading as little as it can: only the
 * stretch of each partition the window of time covers ({@link ScanBounds}), only the key's shard partition when one
 * key is asked for (the object processor writes an object's events there), and the values of only the records whose
 * key names the bucket. A consumer of its own, assigned rather than subscribed: no group, nothing committed,
 * {@code read_committed}.
 */
public final class AuditScan {

    private static final Logger log = LoggerFactory.getLogger(AuditScan.class);

    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration CLOSE = Duration.ofSeconds(1);

    private final Map<String, Object> consumerProperties;
    private final TopicSpec<String, LifecycleEvent> topic;
    private final Duration timeout;
    private final Consumer<ScanProgress> progress;

    /**
     * @param consumerProperties the operator's consumer settings ({@code kafka.*}, {@code kafka.consumer.*})
     * @param timeout            how long Kafka may take to answer a call, or to hand over anything while records
     *                           are still to be read, before the scan gives up
     * @param progress           told how far the scan has got every two seconds while it runs
     */
    public AuditScan(Map<String, Object> consumerProperties, TopicSpec<String, LifecycleEvent> topic, Duration timeout,
                     Consumer<ScanProgress> progress) {
        this.consumerProperties = Map.copyOf(consumerProperties);
        this.topic = topic;
        this.timeout = timeout;
        this.progress = progress;
    }

    public AuditResult scan(AuditQuery query) {
        long started = System.nanoTime();
        KafkaConsumer<byte[], byte[]> consumer = open();
        try {
            List<TopicPartition> partitions = partitions(consumer, query);
            // Assigned before asking for the end: a read-committed consumer learns the last stable offset only of
            // partitions it is assigned.
            consumer.assign(partitions);
            ScanBounds bounds = ScanBounds.find(consumer, partitions, query.since(), query.until(), timeout);
            Reading reading = new Reading(query, started, bounds.span());
            read(consumer, bounds, reading);
            return new AuditResult(query, reading.tally.latest(), reading.tally.matched(), reading.tally.totals(),
                    partitions.stream().map(TopicPartition::partition).toList(), reading.recordsRead,
                    reading.undecodable, (System.nanoTime() - started) / 1_000_000);
        } catch (TimeoutException e) {
            throw new AuditScanException("Kafka at " + bootstrapServers() + " did not answer within "
                    + timeout.toSeconds() + " s: " + e.getMessage(), e);
        } catch (KafkaException e) {
            // Authorization, a corrupt batch, a broker error: said in one line, not as a stack trace.
            throw new AuditScanException("reading " + topic.name() + " from Kafka at " + bootstrapServers()
                    + " failed: " + e, e);
        } finally {
            // In no group there is nothing to leave; closing only ends fetch sessions, which need not hold up the
            // answer (by default a close waits up to 30 s for a busy broker).
            consumer.close(CloseOptions.timeout(CLOSE));
        }
    }

    private KafkaConsumer<byte[], byte[]> open() {
        Map<String, Object> properties = KafkaClients.committedReader(consumerProperties);
        // Asking about a topic must never create it: a wrong prefix should say so, not leave an empty topic behind.
        properties.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        // Retention deleting the oldest segment under the scan must move it to what is left, not to the end.
        properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        // Fewer, larger batches: the scan does little per record, so the poll loop's own work shows.
        properties.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5_000);
        properties.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-audit");
        try {
            return new KafkaConsumer<>(properties, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        } catch (KafkaException e) {
            throw new AuditScanException("cannot reach Kafka at " + bootstrapServers() + ": " + e.getMessage(), e);
        }
    }

    /** Every partition of the topic, or only the key's shard: where the object processor wrote all its events. */
    private List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, AuditQuery query) {
        List<PartitionInfo> infos = consumer.partitionsFor(topic.name(), timeout);
        if (infos == null || infos.isEmpty()) {
            throw new AuditScanException("topic " + topic.name() + " does not exist on Kafka at " + bootstrapServers()
                    + " (is topic.prefix right? `tidemark topics describe` lists what is there)");
        }
        if (query.key() != null && infos.size() != topic.partitions()) {
            // The object processor writes an event to its task's partition of object-tasks, numbered for the
            // configured shards: a topic resized by hand no longer says where a key's events are. Read it all.
            log.warn("{} has {} partitions, not the {} of the configured shards: reading every partition for one key",
                    topic.name(), infos.size(), topic.partitions());
        } else if (query.key() != null) {
            try {
                return List.of(new TopicPartition(topic.name(), ShardPartitioner.shardOf(query.recordKey(),
                        infos.size())));
            } catch (IllegalStateException e) {
                throw new AuditScanException("topic " + topic.name() + " is not sharded as Tidemark writes it: "
                        + e.getMessage(), e);
            }
        }
        return IntStream.range(0, infos.size()).mapToObj(p -> new TopicPartition(topic.name(), p)).toList();
    }

    private void read(KafkaConsumer<byte[], byte[]> consumer, ScanBounds bounds, Reading reading) {
        Set<TopicPartition> remaining = new HashSet<>(bounds.nonEmpty());
        consumer.assign(remaining);
        remaining.forEach(tp -> consumer.seek(tp, bounds.from().get(tp)));
        long lastMoved = System.nanoTime();
        long lastReported = System.nanoTime();
        long lastPositions = -1;
        while (!remaining.isEmpty()) {
            ConsumerRecords<byte[], byte[]> records = consumer.poll(POLL);
            for (TopicPartition tp : records.partitions()) {
                long to = bounds.to().get(tp);
                for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                    if (r.offset() < to) {
                        reading.take(r);
                    }
                }
            }
            // A partition is done once its position reaches the bound; with read_committed it moves past markers
            // and aborted records on its own, returning no records: a moving position is progress too. Paused, a
            // done partition fetches nothing more.
            Set<TopicPartition> done = new HashSet<>();
            long moved = 0;
            for (TopicPartition tp : remaining) {
                long position = consumer.position(tp, timeout);
                if (position >= bounds.to().get(tp)) {
                    done.add(tp);
                } else {
                    moved += position;
                }
            }
            remaining.removeAll(done);
            consumer.pause(done);
            long now = System.nanoTime();
            if (!records.isEmpty() || !done.isEmpty() || moved != lastPositions) {
                lastPositions = moved;
                lastMoved = now;
            } else if (now - lastMoved > timeout.toNanos()) {
                throw new AuditScanException("Kafka at " + bootstrapServers() + " handed over nothing for "
                        + timeout.toSeconds() + " s with records of " + remaining + " still to read");
            }
            if (now - lastReported >= PROGRESS_EVERY.toNanos() && !remaining.isEmpty()) {
                lastReported = now;
                progress.accept(reading.progress());
            }
        }
    }

    private String bootstrapServers() {
        return String.valueOf(consumerProperties.get(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG));
    }

    /** What one scan has read so far. */
    private final class Reading {

        private final AuditQuery query;
        private final long started;
        private final long span;
        private final AuditTally tally;
        /** The keys of the records worth decoding: the one key asked for, or any key of the bucket. */
        private final byte[] wantedKey;
        private final boolean exactKey;
        private long recordsRead;
        private long undecodable;

        Reading(AuditQuery query, long started, long span) {
            this.query = query;
            this.started = started;
            this.span = span;
            this.tally = new AuditTally(query.limit());
            this.exactKey = query.key() != null;
            this.wantedKey = (exactKey ? query.recordKey() : query.bucket() + "/").getBytes(StandardCharsets.UTF_8);
        }

        void take(ConsumerRecord<byte[], byte[]> r) {
            recordsRead++;
            Instant timestamp = Instant.ofEpochMilli(r.timestamp());
            // Timestamps are the producer's and need not rise with offsets: the bounds are where the window starts
            // and ends, and a record inside them written outside the window is still left out.
            if (!query.inWindow(timestamp) || r.key() != null && !wanted(r.key())) {
                return;
            }
            LifecycleEvent event = decode(r);
            if (event == null) {
                undecodable++;
                return;
            }
            if (query.matches(event)) {
                tally.add(new AuditedEvent(r.partition(), r.offset(), timestamp, event));
            }
        }

        /** The record's key compared as bytes: most records of a busy topic are another bucket's, never decoded. */
        private boolean wanted(byte[] key) {
            if (exactKey) {
                return Arrays.equals(key, wantedKey);
            }
            return key.length >= wantedKey.length
                    && Arrays.equals(key, 0, wantedKey.length, wantedKey, 0, wantedKey.length);
        }

        /** The event, or {@code null} for a record that is not one Tidemark wrote (a tombstone, foreign bytes). */
        private LifecycleEvent decode(ConsumerRecord<byte[], byte[]> r) {
            if (r.key() == null) {
                return null;
            }
            try {
                LifecycleEvent event = topic.valueSerde().deserializer().deserialize(topic.name(), r.value());
                return event == null || event.bucket() == null ? null : event;
            } catch (RuntimeException e) {
                // Whatever the bytes are, one bad record must not hide the trail around it: it is counted instead.
                return null;
            }
        }

        ScanProgress progress() {
            return new ScanProgress(recordsRead, span, (System.nanoTime() - started) / 1_000_000);
        }
    }
}
