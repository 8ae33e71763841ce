package io.tidemark.replay;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes replay-streams' local state fit the Kafka cluster it is about to run against, before Streams opens it
 * (architecture.md, Local state). The state is a cache of the changelogs and of the global {@code bucket-configs}
 * topic, so whatever does not fit is discarded and rebuilt, by itself, instead of failing at every start:
 *
 * <ul>
 *   <li>state written against another Kafka cluster (a volume reused, a cluster restored or replaced): the whole
 *   application directory goes;</li>
 *   <li>a global store filled from a {@code bucket-configs} topic that has since been deleted and recreated: Streams
 *   keeps the store's position with it, past the new topic's end, and its global thread fails with
 *   OffsetOutOfRangeException at every start. The global store's directory goes; it is restored from the topic.</li>
 * </ul>
 * What the state was written against (the cluster's id, the topic's id) is kept beside it; state from before this was
 * kept is taken as it is.
 */
final class LocalState {

    private static final Logger log = LoggerFactory.getLogger(LocalState.class);
    static final String MARKER_FILE = "tidemark-local-state.properties";
    static final String GLOBAL_DIRECTORY = "global";
    private static final String CLUSTER = "kafka.cluster.id";
    private static final String GLOBAL_TOPIC = "global.topic.id";
    private static final long TIMEOUT_SECONDS = 30;

    private LocalState() {
    }

    /**
     * @param applicationDirectory the state directory's {@code <application.id>} subdirectory
     * @param globalTopic          the topic the global store is filled from
     */
    static void prepare(Path applicationDirectory, String globalTopic, Admin admin, ReplayStreamsMetrics metrics) {
        try {
            String clusterId = admin.describeCluster().clusterId().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            Optional<String> topicId = topicId(admin, globalTopic);
            Path marker = applicationDirectory.resolve(MARKER_FILE);
            Properties known = read(marker);
            String knownCluster = known.getProperty(CLUSTER);
            String knownTopic = known.getProperty(GLOBAL_TOPIC);
            if (knownCluster != null && !knownCluster.equals(clusterId)) {
                log.warn("local state in {} was written against Kafka cluster {}, not {}: discarding it; it is "
                        + "rebuilt from the changelogs", applicationDirectory, knownCluster, clusterId);
                delete(applicationDirectory);
                metrics.localStateDiscarded("other-cluster");
            } else if (knownTopic != null && topicId.isPresent() && !knownTopic.equals(topicId.get())) {
                Path global = applicationDirectory.resolve(GLOBAL_DIRECTORY);
                log.warn("the global store in {} was filled from an earlier topic {} (id {}, now {}): discarding it; "
                        + "it is restored from the topic", global, globalTopic, knownTopic, topicId.get());
                delete(global);
                metrics.localStateDiscarded("global-topic-recreated");
            }
            Properties now = new Properties();
            now.setProperty(CLUSTER, clusterId);
            topicId.ifPresent(id -> now.setProperty(GLOBAL_TOPIC, id));
            Files.createDirectories(applicationDirectory);
            try (Writer out = Files.newBufferedWriter(marker, StandardCharsets.UTF_8)) {
                now.store(out, "what replay-streams' local state was written against (see LocalState)");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare the local state in " + applicationDirectory, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while checking the local state", e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot check the local state in " + applicationDirectory + " against "
                    + "Kafka: " + e.getMessage(), e);
        }
    }

    private static Optional<String> topicId(Admin admin, String topic) throws Exception {
        try {
            return Optional.of(admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(TIMEOUT_SECONDS, TimeUnit.SECONDS).get(topic).topicId().toString());
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private static Properties read(Path marker) throws IOException {
        Properties p = new Properties();
        if (Files.exists(marker)) {
            try (Reader in = Files.newBufferedReader(marker, StandardCharsets.UTF_8)) {
                p.load(in);
            }
        }
        return p;
    }

    private static void delete(Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (Stream<Path> all = Files.walk(directory)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
