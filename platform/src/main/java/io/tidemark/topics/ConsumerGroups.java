package io.tidemark.topics;

import io.tidemark.config.TidemarkConfig;
import java.util.List;

/**
 * The consumer groups of Tidemark's services, named in one place beside the topics they read ({@link TopicRegistry}).
 * Names carry the configured topic prefix, so that several pipelines can share one Kafka cluster. These are the
 * names operators watch for lag.
 *
 * @param prefix the configured {@code topic.prefix}
 */
public record ConsumerGroups(String prefix) {

    /** A group and the input topics whose lag is its backlog. */
    public record Group(String id, List<String> topics) {

        public Group {
            topics = List.copyOf(topics);
        }
    }

    public static ConsumerGroups from(TidemarkConfig config) {
        return new ConsumerGroups(config.topicPrefix());
    }

    /** Replay-streams' Kafka Streams {@code application.id}, which is also its consumer group. */
    public String replayStreams() {
        return prefix + "replay-streams";
    }

    public String bucketProcessor() {
        return prefix + "bucket-processor";
    }

    public String objectProcessor() {
        return prefix + "object-processor";
    }

    /** Replay-streams' group with the topics its timers are fed from: the meta-log and the re-arm records. */
    public Group replayStreams(TopicRegistry topics) {
        return new Group(replayStreams(), List.of(topics.metaLog().name(), topics.rearm().name()));
    }

    /** The bucket processors' group with the walks' pages they work through. */
    public Group bucketProcessor(TopicRegistry topics) {
        return new Group(bucketProcessor(), List.of(topics.bucketTasks().name()));
    }

    /** The object processors' group with the deletes they work through. */
    public Group objectProcessor(TopicRegistry topics) {
        return new Group(objectProcessor(), List.of(topics.objectTasks().name()));
    }

    /** Every group with the input topics whose lag is its backlog, in pipeline order. */
    public List<Group> withInputs(TopicRegistry topics) {
        return List.of(replayStreams(topics), bucketProcessor(topics), objectProcessor(topics));
    }
}
