package io.tidemark.localcluster;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node running in a child JVM with this JVM's class path, so tests can kill it with SIGKILL. The child prints
 * {@code READY <address>} once it serves; its other output goes to this JVM's log at debug level.
 */
public final class ChildNode implements Node {

    private static final Logger log = LoggerFactory.getLogger(ChildNode.class);

    private final Process process;
    private final String address;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ChildNode(Process process, String address) {
        this.process = process;
        this.address = address;
    }

    public static ChildNode start(Class<?> main, String heap, String... args) {
        List<String> command = ChildJvm.command(List.of("-Xmx" + heap, "-XX:+UseSerialGC"), main, args);
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            List<String> early = new ArrayList<>();
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("READY ")) {
                    Thread drain = new Thread(() -> out.lines().forEach(l -> log.debug("[{}] {}", main.getSimpleName(), l)),
                            "child-" + main.getSimpleName());
                    drain.setDaemon(true);
                    drain.start();
                    return new ChildNode(process, line.substring("READY ".length()).trim());
                }
                early.add(line);
            }
            process.waitFor(5, TimeUnit.SECONDS);
            throw new IllegalStateException(main.getSimpleName() + " exited before it was ready: "
                    + String.join("\n", early.subList(Math.max(0, early.size() - 20), early.size())));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + main.getSimpleName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting " + main.getSimpleName(), e);
        }
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public String address() {
        return address;
    }

    @Override
    public void kill() {
        if (closed.compareAndSet(false, true)) {
            process.destroyForcibly();
            waitForExit();
        }
    }

    /** SIGTERM, then SIGKILL if the child has not stopped within ten seconds. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            process.destroy();
            if (!waitForExit()) {
                process.destroyForcibly();
                waitForExit();
            }
        }
    }

    private boolean waitForExit() {
        try {
            return process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
