package io.tidemark.checker;

import io.tidemark.localcluster.ServiceProcess;
import io.tidemark.service.ManagedService;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One running instance of a service, as the checker starts, watches, stops and kills it: in this process (where its
 * clock can be skewed while it runs) or as a process of its own (where it can be killed with SIGKILL).
 */
interface ServiceInstance extends AutoCloseable {

    /** Whether it is still running (a process not exited, a service not failed). */
    boolean live();

    /** Why it stopped running, when it did. */
    String failure();

    /** Waits until it is ready, or fails. */
    void awaitReady(Duration timeout) throws InterruptedException;

    /** Stops it the hard way: SIGKILL for a process, a plain stop in this process (which has no harder way). */
    void kill();

    /** Stops it gracefully. */
    @Override
    void close();

    /**
     * A service in this process, started. A start that fails (Kafka away) gives an instance that is not live, which a
     * supervisor starts again.
     */
    static ServiceInstance inProcess(ManagedService service) {
        RuntimeException[] startFailure = new RuntimeException[1];
        try {
            service.start();
        } catch (RuntimeException e) {
            startFailure[0] = e;
        }
        return new ServiceInstance() {
            @Override
            public boolean live() {
                return startFailure[0] == null && service.live();
            }

            @Override
            public String failure() {
                return String.valueOf(startFailure[0] != null ? startFailure[0] : service.failure());
            }

            @Override
            public void awaitReady(Duration timeout) throws InterruptedException {
                ManagedService.awaitReady(List.of(service), timeout);
            }

            @Override
            public void kill() {
                service.close();
            }

            @Override
            public void close() {
                service.close();
            }
        };
    }

    /**
     * {@code tidemark <name> --set k=v...} started as a process from {@code main}, the services' entry point; its log
     * is written to {@code logFile} when it is stopped or killed.
     */
    static ServiceInstance process(Class<?> main, String name, Map<String, String> settings, Path logFile)
            throws IOException {
        List<String> args = new ArrayList<>(List.of(name));
        settings.forEach((k, v) -> args.addAll(List.of("--set", k + "=" + v)));
        ServiceProcess process = ServiceProcess.start(main, "256m", Map.of(), args.toArray(String[]::new));
        Runnable keepLog = () -> {
            try {
                Files.createDirectories(logFile.getParent());
                Files.write(logFile, process.log());
            } catch (IOException e) {
                // The log is for a person reading a finding; the run goes on without it.
            }
        };
        return new ServiceInstance() {
            @Override
            public boolean live() {
                return process.alive();
            }

            @Override
            public String failure() {
                List<String> log = process.log();
                return "exited; its log ends: " + log.subList(Math.max(0, log.size() - 3), log.size());
            }

            @Override
            public void awaitReady(Duration timeout) throws InterruptedException {
                long deadline = System.nanoTime() + timeout.toNanos();
                while (!process.ready()) {
                    if (!process.alive() || System.nanoTime() > deadline) {
                        throw new IllegalStateException(name + " not ready: " + failure());
                    }
                    Thread.sleep(100);
                }
            }

            @Override
            public void kill() {
                process.close();
                keepLog.run();
            }

            @Override
            public void close() {
                try {
                    process.terminate();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    process.close();
                } catch (RuntimeException e) {
                    process.close();
                }
                keepLog.run();
            }
        };
    }
}
