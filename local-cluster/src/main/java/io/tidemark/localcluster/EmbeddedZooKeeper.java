package io.tidemark.localcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.server.ServerConfig;
import org.apache.zookeeper.server.ZooKeeperServerMain;
import org.apache.zookeeper.server.quorum.QuorumPeerConfig;
import org.apache.zookeeper.util.ServiceUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real standalone ZooKeeper server in this JVM, bound to loopback, its data kept in a directory. The server runs
 * on a thread of its own; start-up waits until it serves, and a failure to start (a port in use) is reported to the
 * caller instead of only being logged, which is what ZooKeeper's own embedded wrapper does.
 */
public final class EmbeddedZooKeeper extends InProcessNode {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedZooKeeper.class);
    private static final int MAX_ATTEMPTS = 5;
    private static final long START_TIMEOUT_MS = 30_000;

    private final Server server;

    private EmbeddedZooKeeper(Server server, String connect) {
        super(connect);
        this.server = server;
    }

    public static EmbeddedZooKeeper start(Path dataDir, int port) {
        return start(dataDir, port, Ports::distinct);
    }

    /**
     * As {@link #start(Path, int)}, a new node's port taken from {@code ports}. When another process took that
     * port before the server bound it, a new node tries another; a restart keeps its recorded port.
     */
    static EmbeddedZooKeeper start(Path dataDir, int port, Ports.Source ports) {
        for (int attempt = 1; ; attempt++) {
            Path portFile = dataDir.resolve("port");
            boolean fresh = !Files.exists(portFile);
            try {
                return startNode(dataDir, port, portFile, ports);
            } catch (RuntimeException e) {
                if (!fresh || attempt == MAX_ATTEMPTS || !Ports.bindClash(e)) {
                    throw e;
                }
                log.warn("ZooKeeper could not bind the port chosen for it ({}); choosing another", e.getMessage());
                Directories.delete(dataDir);
            }
        }
    }

    private static EmbeddedZooKeeper startNode(Path dataDir, int port, Path portFile, Ports.Source ports) {
        int chosen;
        ServerConfig config = new ServerConfig();
        try {
            Files.createDirectories(dataDir);
            chosen = Files.exists(portFile) ? Integer.parseInt(Files.readString(portFile).trim())
                    : port > 0 ? port : ports.take(1).get(0);
            Files.writeString(portFile, String.valueOf(chosen));
            Properties properties = new Properties();
            properties.setProperty("dataDir", dataDir.resolve("data").toString());
            properties.setProperty("clientPort", String.valueOf(chosen));
            properties.setProperty("clientPortAddress", "127.0.0.1");
            properties.setProperty("tickTime", "500");
            properties.setProperty("initLimit", "10");
            properties.setProperty("syncLimit", "5");
            properties.setProperty("admin.enableServer", "false");
            properties.setProperty("4lw.commands.whitelist", "ruok,srvr,mntr");
            QuorumPeerConfig parsed = new QuorumPeerConfig();
            parsed.parseProperties(properties);
            config.readFrom(parsed);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dataDir, e);
        } catch (QuorumPeerConfig.ConfigException e) {
            throw new IllegalStateException("invalid ZooKeeper configuration: " + e.getMessage(), e);
        }
        // ZooKeeper exits the JVM on some internal errors; in a test or a command that hosts it, log instead.
        ServiceUtils.setSystemExitProcedure(ServiceUtils.LOG_ONLY);
        Server server = new Server();
        server.runOnItsThread(config);
        server.awaitStarted();
        return new EmbeddedZooKeeper(server, "127.0.0.1:" + chosen);
    }

    @Override
    void stop() {
        server.close();
    }

    /** ZooKeeper's standalone main, reporting when it serves and why it stopped. */
    private static final class Server extends ZooKeeperServerMain {

        private final CompletableFuture<Void> started = new CompletableFuture<>();
        private Thread thread;

        void runOnItsThread(ServerConfig config) {
            thread = new Thread(() -> {
                try {
                    runFromConfig(config);
                    started.completeExceptionally(new IllegalStateException("ZooKeeper stopped while starting"));
                } catch (Throwable t) {
                    if (!started.completeExceptionally(t)) {
                        log.error("ZooKeeper server failed", t);
                    }
                }
            }, "zookeeper-server");
            thread.setDaemon(true);
            thread.start();
        }

        @Override
        protected void serverStarted() {
            started.complete(null);
        }

        void awaitStarted() {
            try {
                started.get(START_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                close();
                throw new IllegalStateException("ZooKeeper did not start: " + e.getCause(), e.getCause());
            } catch (TimeoutException e) {
                close();
                throw new IllegalStateException("ZooKeeper did not start within " + START_TIMEOUT_MS + " ms", e);
            } catch (InterruptedException e) {
                close();
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while ZooKeeper started", e);
            }
        }

        @Override
        public void close() {
            super.close();
            if (thread != null) {
                try {
                    thread.join(10_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }
}
