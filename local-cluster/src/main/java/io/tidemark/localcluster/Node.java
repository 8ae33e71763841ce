package io.tidemark.localcluster;

/** A server of the local cluster, in this JVM or in a child process. Close stops it and is idempotent. */
public interface Node extends AutoCloseable {

    /** How clients reach it: bootstrap servers for Kafka, a connect string for ZooKeeper. */
    String address();

    /** Stops it at once, like {@code kill -9}, where it runs as a process; a plain close otherwise. */
    void kill();

    @Override
    void close();
}
