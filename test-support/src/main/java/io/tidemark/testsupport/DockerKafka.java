package io.tidemark.testsupport;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.kafka.KafkaContainer;

/** Kafka in a container, for machines that have a Docker engine. */
final class DockerKafka {

    static final String IMAGE = "apache/kafka-native:4.3.1";

    private DockerKafka() {
    }

    static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException | LinkageError e) {
            return false;
        }
    }

    /** Starts a container that lives as long as this JVM (Testcontainers' reaper removes it afterwards). */
    @SuppressWarnings("resource")
    static String start() {
        KafkaContainer kafka = new KafkaContainer(IMAGE);
        kafka.start();
        return kafka.getBootstrapServers();
    }
}
