package io.tidemark.service;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes parts that do not depend on one another at the same time, so that stopping them takes as long as the
 * slowest, not the sum: a process running several services (each with its own Kafka clients, RocksDB stores and
 * ZooKeeper session) otherwise keeps its user waiting for every one of them in turn. Each part closes on a thread
 * of its own; a part that fails to close is logged and the others still close. Returns when all have.
 */
public final class CloseTogether {

    private static final Logger log = LoggerFactory.getLogger(CloseTogether.class);

    private CloseTogether() {
    }

    /**
     * @param owner who closes them, for the log and the threads' names
     * @param parts by name, in any order: none may need another to be open while it closes
     */
    public static void close(String owner, Map<String, ? extends AutoCloseable> parts) {
        List<Thread> closing = new ArrayList<>();
        parts.forEach((name, part) -> {
            Thread thread = new Thread(() -> closeQuietly(owner, name, part), owner + "-closing-" + name);
            thread.start();
            closing.add(thread);
        });
        boolean interrupted = false;
        for (Thread thread : closing) {
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    // The parts are still closing; leaving now would let the caller remove what they still write.
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(String owner, String name, AutoCloseable part) {
        long began = System.nanoTime();
        try {
            part.close();
            log.info("{}: {} closed in {} ms", owner, name, (System.nanoTime() - began) / 1_000_000);
        } catch (Exception e) {
            log.warn("{}: closing {} failed: {}", owner, name, e.toString(), e);
        }
    }
}
