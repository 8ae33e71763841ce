package io.tidemark.populator;

import io.tidemark.messages.BucketConfig;
import io.tidemark.messages.PopulatorCheckpoint;
import io.tidemark.messages.pb.MetaLogProto.MetaLogRecord;
import io.tidemark.messages.pb.MetaLogProto.MetaLogWriter;
import io.tidemark.topics.KafkaClients;
import io.tidemark.topics.TopicReader;
import io.tidemark.topics.TopicRegistry;
import io.tidemark.topics.TopicSpec;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.stream.IntStream;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the populator's committed transactions say: the last checkpoint and the last known configuration of every
 * bucket. Read with {@code read_committed} after the producer's {@code initTransactions}, which settles any
 * transaction a previous leader left open, so the two are consistent with each other and with the meta-log.
 */
public record CommittedState(Optional<PopulatorCheckpoint> checkpoint, Map<String, BucketConfig> configs,
                             Optional<MetaLogPosition> metaLogTail, Set<String> unreadableConfigs,
                             long foreignMetaLogRecords) {

    /** Where the committed meta-log ends: the newest record's ts_ns and its place among events of that ts_ns. */
    public record MetaLogPosition(long tsNs, int seqAtTs) {

        /** Whether this position lies past what the checkpoint covers (its last event is #eventsAtTs − 1). */
        boolean beyond(PopulatorCheckpoint checkpoint) {
            return after(new MetaLogPosition(checkpoint.tsNs(), checkpoint.eventsAtTs() - 1));
        }

        boolean after(MetaLogPosition other) {
            return tsNs > other.tsNs || (tsNs == other.tsNs && seqAtTs > other.seqAtTs);
        }
    }

    public CommittedState(Optional<PopulatorCheckpoint> checkpoint, Map<String, BucketConfig> configs) {
        this(checkpoint, configs, Optional.empty(), Set.of(), 0);
    }

    public CommittedState(Optional<PopulatorCheckpoint> checkpoint, Map<String, BucketConfig> configs,
                          Optional<MetaLogPosition> metaLogTail) {
        this(checkpoint, configs, metaLogTail, Set.of(), 0);
    }

    public CommittedState(Optional<PopulatorCheckpoint> checkpoint, Map<String, BucketConfig> configs,
                          Optional<MetaLogPosition> metaLogTail, Set<String> unreadableConfigs) {
        this(checkpoint, configs, metaLogTail, unreadableConfigs, 0);
    }

    private static final Logger log = LoggerFactory.getLogger(CommittedState.class);

    public CommittedState {
        configs = Map.copyOf(configs);
        unreadableConfigs = Set.copyOf(unreadableConfigs);
    }

    /** Reads both compacted topics to their end. */
    public static CommittedState read(Map<String, Object> consumerProperties, TopicRegistry topics, Duration timeout) {
        Map<String, Object> props = KafkaClients.committedReader(consumerProperties);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-populator-state");
        try (Consumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            awaitSettled(consumer, consumerProperties, topics.populatorCheckpoint(), timeout);
            PopulatorCheckpoint[] last = new PopulatorCheckpoint[1];
            // An unreadable checkpoint is fatal: guessing an older one would publish events twice.
            readToEnd(consumer, topics.populatorCheckpoint(), timeout, null, (key, value) -> {
                if (PopulatorCheckpoint.KEY.equals(key)) {
                    last[0] = value;
                }
            });
            Map<String, BucketConfig> configs = new HashMap<>();
            Set<String> unreadable = new HashSet<>();
            // An unreadable config is not guessed at: the bucket is named, and the term looks it up on the filer.
            readToEnd(consumer, topics.bucketConfigs(), timeout, bucket -> {
                configs.remove(bucket);
                unreadable.add(bucket);
            }, (bucket, config) -> {
                unreadable.remove(bucket);
                if (config == null) {
                    configs.remove(bucket);
                } else {
                    configs.put(bucket, config);
                }
            });
            long[] foreign = new long[1];
            Optional<MetaLogPosition> tail = metaLogTail(consumer, topics, timeout, foreign);
            if (foreign[0] > 0) {
                log.warn("the meta-log holds {} record(s) of another writer past the populator's own; they do not "
                        + "move its position", foreign[0]);
            }
            return new CommittedState(Optional.ofNullable(last[0]), configs, tail, unreadable, foreign[0]);
        }
    }

    /**
     * Waits, at most {@code timeout}, until no transaction is pending on the checkpoint topic: its last stable offset
     * has reached its end. A previous term's commit that the broker took just before it went away is completed when
     * the coordinator comes back, and its markers may still be on their way after {@code initTransactions} returns:
     * read before them, the checkpoint and the meta-log tail are those of the batch before, and that batch would be
     * published twice (seen once in 28 builds, PopulatorResilienceTest, across a broker kill -9). Every populator
     * transaction writes a checkpoint, so this topic alone tells whether the last one has settled.
     */
    private static void awaitSettled(Consumer<byte[], byte[]> committed, Map<String, Object> consumerProperties,
                                     TopicSpec<String, PopulatorCheckpoint> checkpoints, Duration timeout) {
        List<TopicPartition> partitions = IntStream.range(0, checkpoints.partitions())
                .mapToObj(p -> new TopicPartition(checkpoints.name(), p)).toList();
        Map<String, Object> props = KafkaClients.committedReader(consumerProperties);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "tidemark-populator-state-end");
        long deadline = System.nanoTime() + timeout.toNanos();
        try (Consumer<byte[], byte[]> uncommitted = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            while (true) {
                Map<TopicPartition, Long> end = uncommitted.endOffsets(partitions, timeout);
                Map<TopicPartition, Long> stable = committed.endOffsets(partitions, timeout);
                if (stable.equals(end)) {
                    return;
                }
                if (System.nanoTime() - deadline > 0) {
                    log.warn("a transaction on {} is still pending after {} ms (stable {}, end {}); reading what is "
                            + "committed now", checkpoints.name(), timeout.toMillis(), stable, end);
                    return;
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new org.apache.kafka.common.errors.InterruptException(e);
                }
            }
        }
    }

    /**
     * The newest committed meta-log record the populator wrote, over all partitions. Batches commit in stream
     * order, so it marks the end of what was published even if a checkpoint is not readable yet. Each partition is
     * read backwards from its end in growing windows until one of the populator's records turns up (transaction
     * markers take offsets too); records of other writers after it are counted in {@code foreign}.
     */
    private static Optional<MetaLogPosition> metaLogTail(Consumer<byte[], byte[]> consumer, TopicRegistry topics,
                                                         Duration timeout, long[] foreign) {
        TopicSpec<String, MetaLogRecord> metaLog = topics.metaLog();
        List<TopicPartition> partitions = IntStream.range(0, metaLog.partitions())
                .mapToObj(p -> new TopicPartition(metaLog.name(), p)).toList();
        consumer.assign(partitions);   // see TopicReader.readToEnd
        Map<TopicPartition, Long> begin = consumer.beginningOffsets(partitions, timeout);
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        MetaLogPosition newest = null;
        for (TopicPartition tp : partitions) {
            long window = 64;
            MetaLogPosition last = null;
            while (last == null && end.get(tp) > begin.get(tp)) {
                long from = Math.max(begin.get(tp), end.get(tp) - window);
                long[] foreignInWindow = new long[1];
                last = lastRecord(consumer, metaLog, tp, from, end.get(tp), timeout, foreignInWindow);
                if (last != null || from == begin.get(tp)) {
                    foreign[0] += foreignInWindow[0];
                }
                if (from == begin.get(tp)) {
                    break;
                }
                window *= 4;
            }
            if (last != null && (newest == null || last.after(newest))) {
                newest = last;
            }
        }
        return Optional.ofNullable(newest);
    }

    private static MetaLogPosition lastRecord(Consumer<byte[], byte[]> consumer, TopicSpec<String, MetaLogRecord> metaLog,
                                              TopicPartition tp, long from, long end, Duration timeout,
                                              long[] foreignAfter) {
        MetaLogPosition[] last = new MetaLogPosition[1];
        TopicReader.read(consumer, Map.of(tp, from), Map.of(tp, end), timeout, r -> {
            if (r.value() == null) {
                return;
            }
            Optional<MetaLogRecord> own = ownRecord(metaLog, r);
            if (own.isEmpty()) {
                foreignAfter[0]++;
                return;
            }
            last[0] = new MetaLogPosition(own.get().getTsNs(), own.get().getSeqAtTs());
            foreignAfter[0] = 0;
        });
        return last[0];
    }

    /**
     * The record, if the populator wrote it: marked {@link MetaLogWriter#POPULATOR}, or by the header earlier versions
     * used. Another writer's value need not even parse.
     */
    private static Optional<MetaLogRecord> ownRecord(TopicSpec<String, MetaLogRecord> metaLog,
                                                     ConsumerRecord<byte[], byte[]> r) {
        MetaLogRecord record;
        try {
            record = metaLog.valueSerde().deserializer().deserialize(metaLog.name(), r.value());
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        if (record.getWriter() == MetaLogWriter.POPULATOR) {
            return Optional.of(record);
        }
        Header legacy = r.headers().lastHeader(TransactionalPublisher.LEGACY_WRITER_HEADER);
        return legacy != null && Arrays.equals(legacy.value(), TransactionalPublisher.LEGACY_WRITER)
                ? Optional.of(record) : Optional.empty();
    }

    private static <V> void readToEnd(Consumer<byte[], byte[]> consumer, TopicSpec<String, V> topic, Duration timeout,
                                      java.util.function.Consumer<String> unreadable,
                                      BiConsumer<String, V> sink) {
        TopicReader.readToEnd(consumer, topic.name(), topic.partitions(), timeout, r -> {
            String key = topic.keySerde().deserializer().deserialize(topic.name(), r.key());
            V value;
            try {
                value = r.value() == null ? null : topic.valueSerde().deserializer().deserialize(topic.name(), r.value());
            } catch (RuntimeException e) {
                String where = topic.name() + "-" + r.partition() + "@" + r.offset() + " (key " + key + ")";
                if (unreadable == null) {
                    throw new IllegalStateException("unreadable record at " + where + ": " + e.getMessage(), e);
                }
                log.warn("unreadable record at {}: {}", where, e.getMessage());
                unreadable.accept(key);
                return;
            }
            sink.accept(key, value);
        });
    }
}
