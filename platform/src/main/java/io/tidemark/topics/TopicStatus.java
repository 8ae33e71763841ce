package io.tidemark.topics;

import java.util.List;

/**
 * How a topic on the cluster compares with its {@link TopicSpec}.
 *
 * @param problems what differs; empty when the topic is as the registry wants it
 */
public record TopicStatus(String name, boolean exists, boolean created, int partitions, int expectedPartitions,
                          String cleanupPolicy, String expectedCleanupPolicy, int replicationFactor,
                          List<String> problems) {

    public TopicStatus {
        problems = List.copyOf(problems);
    }

    public boolean ok() {
        return exists && problems.isEmpty();
    }
}
