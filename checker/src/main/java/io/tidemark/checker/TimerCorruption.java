package io.tidemark.checker;

import io.tidemark.config.TidemarkConfig;
import io.tidemark.topics.ConsumerGroups;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Makes one armed timer unreadable, as a disk or an older version's bytes could: while replay-streams is stopped, a
 * record of bytes no timer codec reads is written over the timer's latest value in the timers store's changelog, so
 * the instance that starts next restores it and finds it when it falls due. What the pipeline must then do is what it
 * does with any timer it cannot fire: set it aside, and still act on its object.
 *
 * <p>The changelog's key is the store's: the due instant in milliseconds (8 bytes, big-endian) and then the timer's
 * id, which starts with its bucket.
 */
final class TimerCorruption {

    /** Not JSON, not the binary format's version byte: every decoder refuses it. */
    static final byte[] UNREADABLE = {(byte) 0xfe, 'u', 'n', 'r', 'e', 'a', 'd', 'a', 'b', 'l', 'e'};

    /** A timer as its changelog holds it. */
    record Armed(TopicPartition partition, byte[] key, Instant due, String timerId) {
    }

    private TimerCorruption() {
    }

    /** The changelog of replay-streams' timers store under a run's settings. */
    static String changelog(TidemarkConfig config) {
        return ConsumerGroups.from(config).replayStreams() + "-timers-changelog";
    }

    /**
     * Overwrites one armed timer of the given buckets (not one merely waiting for an event; a timer that fired is gone
     * from the changelog), one of the three due first, chosen by {@code pick}; empty when there is none.
     */
    static Optional<Armed> corruptOne(TidemarkConfig config, List<String> buckets, Instant after, long pick) {
        List<Armed> armed = armed(config, buckets, after);
        if (armed.isEmpty()) {
            return Optional.empty();
        }
        // Among the three that fall due first: a timer due after the history has ended would show nothing.
        List<Armed> soonest = armed.stream().sorted(java.util.Comparator.comparing(Armed::due)).limit(3).toList();
        Armed chosen = soonest.get((int) Math.floorMod(pick, (long) soonest.size()));
        Map<String, Object> props = new HashMap<>(config.producerProperties());
        props.keySet().removeIf(k -> k.startsWith("transactional"));
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(chosen.partition().topic(), chosen.partition().partition(),
                    chosen.key(), UNREADABLE)).get();
        } catch (Exception e) {
            throw new IllegalStateException("could not write over timer " + chosen.timerId() + ": " + e, e);
        }
        return Optional.of(chosen);
    }

    /** Every live timer of the buckets, read from the changelog to its end, in the changelog's order. */
    private static List<Armed> armed(TidemarkConfig config, List<String> buckets, Instant after) {
        Map<String, Object> props = new HashMap<>(config.consumerProperties());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        Map<String, Armed> latest = new java.util.LinkedHashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(changelog(config), Duration.ofSeconds(10))
                    .stream().map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))
                    && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() == null || r.key().length <= 8) {
                        continue;
                    }
                    String id = new String(r.key(), 8, r.key().length - 8, StandardCharsets.UTF_8);
                    String mapKey = r.partition() + "|" + Arrays.toString(r.key());
                    if (r.value() == null) {
                        latest.remove(mapKey);
                    } else {
                        Instant due = Instant.ofEpochMilli(ByteBuffer.wrap(r.key(), 0, 8).getLong());
                        latest.put(mapKey, new Armed(new TopicPartition(r.topic(), r.partition()), r.key(), due, id));
                    }
                }
            }
        }
        List<Armed> live = new ArrayList<>();
        for (Armed a : latest.values()) {
            // A timer that waits for an event (a null version's demotion) is due at the end of time: never fired.
            boolean waiting = a.due().isAfter(after.plus(Duration.ofDays(365)));
            if (!waiting && buckets.stream().anyMatch(b -> a.timerId().startsWith(b + "/"))) {
                live.add(a);
            }
        }
        return live;
    }
}
