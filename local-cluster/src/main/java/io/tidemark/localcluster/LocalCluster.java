package io.tidemark.localcluster;

import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.service.CloseTogether;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything Tidemark talks to, on this machine: a single-node Kafka in KRaft mode, a ZooKeeper server and the
 * filer emulator. Kafka and ZooKeeper run in this JVM or as child processes (so tests can kill them); the
 * emulator runs in this JVM. Without a data directory everything lives in a temporary one removed on close.
 */
public final class LocalCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LocalCluster.class);

    public enum Mode { IN_PROCESS, CHILD_PROCESSES }

    private final Builder settings;
    private final Path dataDir;
    private final boolean temporary;
    private final AtomicBoolean closed = new AtomicBoolean();
    private Node zookeeper;
    private Node kafka;
    private FilerEmulator emulator;
    private Duration startupTime = Duration.ZERO;

    private LocalCluster(Builder settings, Path dataDir, boolean temporary) {
        this.settings = settings;
        this.dataDir = dataDir;
        this.temporary = temporary;
    }

    public static Builder builder() {
        return new Builder();
    }

    public static final class Builder {
        private Mode mode = Mode.IN_PROCESS;
        private Path dataDir;
        private int kafkaPort;
        private int zookeeperPort;
        private boolean emulator = true;
        private int filerPort;
        private int s3GrpcPort;
        private int filers = 1;
        private String externalKafka;

        public Builder mode(Mode value) {
            mode = value;
            return this;
        }

        public Builder dataDir(Path value) {
            dataDir = value;
            return this;
        }

        public Builder kafkaPort(int value) {
            kafkaPort = value;
            return this;
        }

        public Builder zookeeperPort(int value) {
            zookeeperPort = value;
            return this;
        }

        public Builder emulator(boolean value) {
            emulator = value;
            return this;
        }

        public Builder emulatorPorts(int filer, int s3Grpc) {
            filerPort = filer;
            s3GrpcPort = s3Grpc;
            return this;
        }

        /** Runs the emulator as a cluster of {@code count} filers sharing one store, with a master listing them. */
        public Builder filers(int count) {
            filers = count;
            return this;
        }

        /** Uses a Kafka started elsewhere (a container) instead of starting one. */
        public Builder externalKafka(String bootstrapServers) {
            externalKafka = bootstrapServers;
            return this;
        }

        public LocalCluster start() {
            try {
                boolean temporary = dataDir == null;
                Path dir = temporary ? Files.createTempDirectory("tidemark-local-cluster") : dataDir;
                LocalCluster cluster = new LocalCluster(this, dir, temporary);
                cluster.startAll();
                return cluster;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create the cluster's data directory", e);
            }
        }
    }

    private void startAll() {
        long began = System.nanoTime();
        try {
            zookeeper = startZooKeeper();
            kafka = settings.externalKafka != null ? external(settings.externalKafka) : startKafka();
            if (settings.emulator) {
                emulator = new FilerEmulator(EmulatorSettings.ephemeral()
                        .withPorts(settings.filerPort, settings.s3GrpcPort, 0)
                        .withFilers(settings.filers)
                        .withDataDir(dataDir.resolve("seaweed")), Clock.systemUTC()).start();
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
        startupTime = Duration.ofNanos(System.nanoTime() - began);
        log.info("local cluster up in {} ms ({}): kafka {}, zookeeper {}, filer {}", startupTime.toMillis(),
                settings.mode, kafka.address(), zookeeper.address(), emulator == null ? "none" : emulator.filerAddress());
    }

    private Node startZooKeeper() {
        Path dir = dataDir.resolve("zookeeper");
        return settings.mode == Mode.IN_PROCESS
                ? EmbeddedZooKeeper.start(dir, settings.zookeeperPort)
                : ChildNode.start(NodeMain.class, "256m", "zookeeper", dir.toString(), String.valueOf(settings.zookeeperPort));
    }

    private Node startKafka() {
        Path dir = dataDir.resolve("kafka");
        return settings.mode == Mode.IN_PROCESS
                ? EmbeddedKafka.start(dir, settings.kafkaPort)
                : ChildNode.start(NodeMain.class, "768m", "kafka", dir.toString(), String.valueOf(settings.kafkaPort));
    }

    /** Stops Kafka, abruptly where it is a child process, and starts it again on the same data and port. */
    public void restartKafka(boolean kill) {
        restartKafka(kill, Duration.ZERO);
    }

    /** As {@link #restartKafka(boolean)}, staying down for {@code downtime} first, so clients time out. */
    public void restartKafka(boolean kill, Duration downtime) {
        if (settings.externalKafka != null) {
            throw new IllegalStateException("an external Kafka cannot be restarted from here");
        }
        if (kill) {
            kafka.kill();
        } else {
            kafka.close();
        }
        try {
            Thread.sleep(downtime.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        kafka = startKafka();
    }

    /** Stops ZooKeeper, abruptly where it is a child process, and starts it again on the same data and port. */
    public void restartZooKeeper(boolean kill) {
        if (kill) {
            zookeeper.kill();
        } else {
            zookeeper.close();
        }
        zookeeper = startZooKeeper();
    }

    public Node kafka() {
        return kafka;
    }

    public Node zookeeper() {
        return zookeeper;
    }

    public String kafkaBootstrapServers() {
        return kafka.address();
    }

    public String zookeeperConnect() {
        return zookeeper.address();
    }

    public FilerEmulator emulator() {
        if (emulator == null) {
            throw new IllegalStateException("this cluster runs without the filer emulator");
        }
        return emulator;
    }

    /** Every filer's gRPC address, the first being {@code filer.address}. */
    public List<String> filerAddresses() {
        return emulator().filerAddresses();
    }

    /** The emulated master's gRPC address, where {@code ListClusterNodes} lists the filers that are up. */
    public String masterAddress() {
        return emulator().masterAddress();
    }

    public Duration startupTime() {
        return startupTime;
    }

    /** Where the cluster is, in the configuration keys every tidemark command reads. */
    public Map<String, String> settings() {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("kafka.bootstrap.servers", kafkaBootstrapServers());
        settings.put("zookeeper.connect", zookeeperConnect());
        if (emulator != null) {
            settings.put("filer.address", emulator.filerAddress());
            if (emulator.filerCount() > 1) {
                // Each filer records only the writes it received: a service tails them all, found at the master.
                settings.put("filer.master.address", emulator.masterAddress());
            }
            settings.put("s3.grpc.address", emulator.s3GrpcAddress());
        }
        return settings;
    }

    /** The settings every tidemark command reads, as environment variables. */
    public Map<String, String> environment() {
        Map<String, String> env = new LinkedHashMap<>();
        settings().forEach((key, value) -> env.put("TIDEMARK_" + key.replace('.', '_').toUpperCase(Locale.ROOT),
                value));
        if (emulator != null) {
            if (emulator.adminAddress() != null) {
                // Read by `tidemark emulator s3|faults`, so a second shell can drive the emulator.
                env.put("TIDEMARK_EMULATOR_ADMIN_ADDRESS", emulator.adminAddress());
            }
        }
        return env;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // Kafka runs in KRaft mode: none of the three needs another to stop, so they stop together.
        Map<String, AutoCloseable> parts = new LinkedHashMap<>();
        if (emulator != null) {
            parts.put("emulator", emulator);
        }
        if (kafka != null) {
            parts.put("kafka", kafka);
        }
        if (zookeeper != null) {
            parts.put("zookeeper", zookeeper);
        }
        CloseTogether.close("local-cluster", parts);
        if (temporary) {
            try {
                Directories.delete(dataDir);
            } catch (UncheckedIOException e) {
                log.warn("cannot remove {}: {}", dataDir, e.getCause().toString());
            }
        }
    }

    private static Node external(String bootstrapServers) {
        return new Node() {
            @Override
            public String address() {
                return bootstrapServers;
            }

            @Override
            public void kill() {
            }

            @Override
            public void close() {
            }
        };
    }
}
