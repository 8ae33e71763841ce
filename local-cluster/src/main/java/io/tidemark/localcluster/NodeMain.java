package io.tidemark.localcluster;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * Entry point of a child node process: {@code kafka|zookeeper DATA_DIR PORT}. Prints {@code READY <address>}
 * once serving and stops cleanly on SIGTERM.
 */
public final class NodeMain {

    private NodeMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        Path dataDir = Path.of(args[1]);
        int port = Integer.parseInt(args[2]);
        Node node = switch (args[0]) {
            case "kafka" -> EmbeddedKafka.start(dataDir, port);
            case "zookeeper" -> EmbeddedZooKeeper.start(dataDir, port);
            default -> throw new IllegalArgumentException("node kind must be kafka or zookeeper, not " + args[0]);
        };
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            stopped.countDown();
        }, "node-shutdown"));
        System.out.println("READY " + node.address());
        System.out.flush();
        stopped.await();
    }
}
