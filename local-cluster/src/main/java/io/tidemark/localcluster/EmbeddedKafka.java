package io.tidemark.localcluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node Kafka broker in KRaft mode (broker and controller in one), running in this JVM. Its data
 * directory is formatted on first start and reused afterwards; the ports it chose are kept beside the data so a
 * restart comes back on the same address.
 */
public final class EmbeddedKafka extends InProcessNode {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
    private static final String PORTS_FILE = "ports.properties";
    private static final int MAX_ATTEMPTS = 5;

    private final KafkaRaftServer server;

    private EmbeddedKafka(KafkaRaftServer server, String bootstrapServers) {
        super(bootstrapServers);
        this.server = server;
    }

    /**
     * @param port the client port, or 0 for a free one (a restart reuses the port recorded in {@code dataDir})
     */
    public static EmbeddedKafka start(Path dataDir, int port) {
        return start(dataDir, port, Ports::distinct);
    }

    /**
     * As {@link #start(Path, int)}, its ports taken from {@code ports}. When the ports chosen for a new node were
     * taken by another process before the broker bound them, the node is prepared again with new ones; a restart
     * keeps its recorded ports and fails instead, since its clients know that address.
     */
    static EmbeddedKafka start(Path dataDir, int port, Ports.Source ports) {
        for (int attempt = 1; ; attempt++) {
            boolean fresh = !Files.exists(dataDir.resolve(PORTS_FILE));
            NodeConfig node = config(dataDir, port, ports);
            try {
                return startNode(dataDir, node);
            } catch (RuntimeException e) {
                if (!fresh || attempt == MAX_ATTEMPTS || !Ports.bindClash(e)) {
                    throw e;
                }
                log.warn("Kafka could not bind the ports chosen for it ({}); choosing others", e.getMessage());
                Directories.delete(dataDir);
            }
        }
    }

    private static EmbeddedKafka startNode(Path dataDir, NodeConfig node) {
        format(dataDir, node.properties());
        KafkaRaftServer server = new KafkaRaftServer(KafkaConfig.fromProps(node.properties(), false), Time.SYSTEM);
        try {
            server.startup();
        } catch (RuntimeException e) {
            server.shutdown();
            server.awaitShutdown();
            throw e;
        }
        return new EmbeddedKafka(server, "127.0.0.1:" + node.clientPort());
    }

    /** The broker's settings and the client port they listen on. */
    record NodeConfig(Properties properties, String clientPort) {
    }

    static NodeConfig config(Path dataDir, int port, Ports.Source source) {
        Path ports = dataDir.resolve(PORTS_FILE);
        Properties chosen = new Properties();
        try {
            Files.createDirectories(dataDir);
            if (Files.exists(ports)) {
                try (var in = Files.newInputStream(ports)) {
                    chosen.load(in);
                }
            } else {
                // Both listeners' ports come from one reservation: two separate choices can name the same port.
                List<Integer> free = source.take(2);
                int client = port > 0 ? port : free.get(0);
                int controller = free.get(0) == client ? free.get(1) : free.get(0);
                chosen.setProperty("client", String.valueOf(client));
                chosen.setProperty("controller", String.valueOf(controller));
                try (var out = Files.newOutputStream(ports)) {
                    chosen.store(out, "ports of this local Kafka node");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dataDir, e);
        }
        String client = chosen.getProperty("client");
        String controller = chosen.getProperty("controller");
        Properties p = new Properties();
        p.setProperty("process.roles", "broker,controller");
        p.setProperty("node.id", "1");
        p.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controller);
        p.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + client + ",CONTROLLER://127.0.0.1:" + controller);
        p.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + client);
        p.setProperty("controller.listener.names", "CONTROLLER");
        p.setProperty("inter.broker.listener.name", "PLAINTEXT");
        p.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        p.setProperty("log.dirs", dataDir.resolve("logs").toString());
        p.setProperty("num.partitions", "1");
        // One node: every internal topic must make do with one replica, or groups and transactions hang.
        p.setProperty("offsets.topic.replication.factor", "1");
        p.setProperty("transaction.state.log.replication.factor", "1");
        p.setProperty("transaction.state.log.min.isr", "1");
        p.setProperty("share.coordinator.state.topic.replication.factor", "1");
        p.setProperty("share.coordinator.state.topic.min.isr", "1");
        // Kafka's 50 partitions each for offsets and transactions are sized for a production cluster. On one node
        // they only make the first group or transactional producer wait while a hundred partitions are created, and
        // every client asking meanwhile gets the broker to try creating the topic again (and warn that it exists).
        p.setProperty("offsets.topic.num.partitions", "4");
        p.setProperty("transaction.state.log.num.partitions", "4");
        p.setProperty("group.initial.rebalance.delay.ms", "0");
        p.setProperty("auto.create.topics.enable", "false");
        return new NodeConfig(p, client);
    }

    private static void format(Path dataDir, Properties config) {
        if (Files.exists(dataDir.resolve("logs").resolve("meta.properties"))) {
            return;
        }
        Path file = dataDir.resolve("server.properties");
        try (OutputStream out = Files.newOutputStream(file)) {
            config.store(out, "local Kafka node");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        int rc = kafka.tools.StorageTool.execute(new String[] {"format", "-t", Uuid.randomUuid().toString(), "-c",
                file.toString()}, new PrintStream(output, true, StandardCharsets.UTF_8));
        if (rc != 0) {
            throw new IllegalStateException("formatting the Kafka data directory failed: "
                    + output.toString(StandardCharsets.UTF_8));
        }
    }

    @Override
    void stop() {
        server.shutdown();
        server.awaitShutdown();
    }
}
