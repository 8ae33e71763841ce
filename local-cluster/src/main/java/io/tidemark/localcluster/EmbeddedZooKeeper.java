package io.tidemark.localcluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

/** A real standalone ZooKeeper server in this JVM, bound to loopback, its data kept in a directory. */
public final class EmbeddedZooKeeper extends InProcessNode {

    private final ZooKeeperServerEmbedded server;

    private EmbeddedZooKeeper(ZooKeeperServerEmbedded server, String connect) {
        super(connect);
        this.server = server;
    }

    public static EmbeddedZooKeeper start(Path dataDir, int port) {
        try {
            Files.createDirectories(dataDir);
            Path portFile = dataDir.resolve("port");
            int chosen = Files.exists(portFile) ? Integer.parseInt(Files.readString(portFile).trim()) : Ports.orFree(port);
            Files.writeString(portFile, String.valueOf(chosen));
            Properties config = new Properties();
            config.setProperty("clientPort", String.valueOf(chosen));
            config.setProperty("clientPortAddress", "127.0.0.1");
            config.setProperty("tickTime", "500");
            config.setProperty("initLimit", "10");
            config.setProperty("syncLimit", "5");
            config.setProperty("admin.enableServer", "false");
            config.setProperty("4lw.commands.whitelist", "ruok,srvr,mntr");
            ZooKeeperServerEmbedded server = ZooKeeperServerEmbedded.builder()
                    .baseDir(dataDir)
                    .configuration(config)
                    .exitHandler(ExitHandler.LOG_ONLY)
                    .build();
            server.start(30_000);
            return new EmbeddedZooKeeper(server, "127.0.0.1:" + chosen);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + dataDir, e);
        } catch (Exception e) {
            throw new IllegalStateException("ZooKeeper did not start: " + e.getMessage(), e);
        }
    }

    @Override
    void stop() {
        server.close();
    }
}
