package io.tidemark.cli.quickstart;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.bucketprocessor.BucketProcessorService;
import io.tidemark.conductor.ConductorService;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.service.ManagedService;
import io.tidemark.topics.GroupLag;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "quickstart", mixinStandardHelpOptions = true,
        description = {"Runs the whole pipeline on this machine in one process: an embedded Kafka, ZooKeeper and "
                + "SeaweedFS emulator, the populator, replay-streams, the object processor, the bucket processor "
                + "and a conductor passing every minute, with a short lifecycle day. Creates a demo bucket whose "
                + "objects fall due, and shows what happens as it happens.",
            "Prints TIDEMARK_...=value lines first: in a second shell, `set -a; . <(those lines); set +a`, then "
                + "`tidemark status` or `tidemark emulator s3 ...`. Ctrl-C stops everything."})
public final class QuickstartCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--day-seconds", defaultValue = "10",
            description = "Length of a lifecycle day in seconds (default ${DEFAULT-VALUE}).")
    private long daySeconds;

    @Option(names = "--no-demo", description = "Start with no bucket: bring your own with `tidemark emulator s3`.")
    private boolean noDemo;

    @Option(names = "--data-dir", description = "Keep Kafka, ZooKeeper, emulator and timer state here across restarts "
            + "(default: temporary).")
    private Path dataDir;

    @Option(names = "--refresh-seconds", defaultValue = "2",
            description = "How often the live line is printed (default ${DEFAULT-VALUE}).")
    private int refreshSeconds;

    @Option(names = "--exit-after-seconds", defaultValue = "0", hidden = true,
            description = "Stop by itself after this long (tests); 0 runs until Ctrl-C.")
    private long exitAfterSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        long began = System.nanoTime();
        LocalCluster cluster = LocalCluster.builder().mode(LocalCluster.Mode.IN_PROCESS).dataDir(dataDir).start();
        List<ManagedService> services = new ArrayList<>();
        CountDownLatch stopped = new CountDownLatch(1);
        Thread shutdown = new Thread(() -> {
            for (int i = services.size() - 1; i >= 0; i--) {
                services.get(i).close();
            }
            cluster.close();
            stopped.countDown();
        }, "quickstart-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        try {
            TidemarkConfig config = new TidemarkConfig(settings(cluster));
            cluster.environment().forEach((name, value) -> out.println(name + "=" + value));
            out.flush();
            services.add(new PopulatorService(config, Clock.systemUTC(), new SimpleMeterRegistry()));
            ReplayStreamsService replay = new ReplayStreamsService(config, new SimpleMeterRegistry());
            services.add(replay);
            ObjectProcessorService objects = new ObjectProcessorService(config, Clock.systemUTC(),
                    new SimpleMeterRegistry());
            services.add(objects);
            services.add(new BucketProcessorService(config, Clock.systemUTC(), new SimpleMeterRegistry()));
            services.add(new ConductorService(config, Clock.systemUTC(), new SimpleMeterRegistry(), "* * * * *"));
            for (ManagedService service : services) {
                service.start();
            }
            ManagedService.awaitReady(services, Duration.ofSeconds(60));
            DemoBucket demo = null;
            if (!noDemo) {
                demo = new DemoBucket(cluster.emulator().s3());
                demo.create(Clock.systemUTC().instant());
            }
            out.printf(Locale.ROOT, "READY in %.1f s: a lifecycle day lasts %d s%s%n",
                    (System.nanoTime() - began) / 1e9, daySeconds, demo == null ? "" : "; bucket \"" + DemoBucket.BUCKET
                            + "\": logs/ expire a day after writing, archive/ by a past date (the walker, each "
                            + "minute), forgotten uploads are aborted, keep/ stays");
            out.flush();
            live(out, config, cluster, replay, objects, demo, stopped);
        } finally {
            // Left the live view without Ctrl-C (a failure at start, or the test's time limit): stop everything here.
            if (stopped.getCount() > 0) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdown);
                    shutdown.run();
                } catch (IllegalStateException shuttingDown) {
                    // Ctrl-C came meanwhile: the hook is stopping everything.
                }
            }
        }
        return 0;
    }

    private Map<String, String> settings(LocalCluster cluster) throws Exception {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(TidemarkConfig.KAFKA_BOOTSTRAP_SERVERS, cluster.kafkaBootstrapServers());
        settings.put(TidemarkConfig.ZOOKEEPER_CONNECT, cluster.zookeeperConnect());
        settings.put(TidemarkConfig.FILER_ADDRESS, cluster.emulator().filerAddress());
        settings.put(TidemarkConfig.S3_GRPC_ADDRESS, cluster.emulator().s3GrpcAddress());
        settings.put(TidemarkConfig.LIFECYCLE_DAY_SECONDS, String.valueOf(daySeconds));
        settings.put(TidemarkConfig.LIFECYCLE_DUE_POLICY, "exact");
        Path state = dataDir == null ? Files.createTempDirectory("tidemark-quickstart") : dataDir.resolve("replay");
        settings.put(TidemarkConfig.REPLAY_STATE_DIR, state.toString());
        settings.put(TidemarkConfig.REPLAY_STATUS_INTERVAL_MS, "2000");
        settings.put(TidemarkConfig.CONDUCTOR_WALK_STALE_MS, "300000");
        settings.put("kafka.consumer.session.timeout.ms", "10000");
        settings.put("kafka.streams.commit.interval.ms", "200");
        return settings;
    }

    /** Prints one line of figures per refresh until stopped; the demo writes new logs every lifecycle day. */
    private void live(PrintWriter out, TidemarkConfig config, LocalCluster cluster, ReplayStreamsService replay,
                      ObjectProcessorService objects, DemoBucket demo, CountDownLatch stopped) throws Exception {
        TopicRegistry topics = TopicRegistry.from(config);
        String prefix = config.topicPrefix();
        long started = System.nanoTime();
        long lastWrite = System.nanoTime();
        try (Admin admin = Admin.create(config.adminProperties())) {
            GroupLag lag = new GroupLag(admin);
            while (!stopped.await(refreshSeconds, TimeUnit.SECONDS)) {
                if (demo != null && System.nanoTime() - lastWrite >= TimeUnit.SECONDS.toNanos(daySeconds)) {
                    demo.writeLogs(5);
                    lastWrite = System.nanoTime();
                }
                long totalLag = lag.total(prefix + "replay-streams", List.of(topics.metaLog().name(),
                        topics.rearm().name())) + lag.total(prefix + "bucket-processor",
                        List.of(topics.bucketTasks().name())) + lag.total(prefix + "object-processor",
                        List.of(topics.objectTasks().name()));
                out.printf(Locale.ROOT, "%s | timers pending %d | deletes done %d (noop %d, locked %d, parked %d) "
                                + "| lag %d%n",
                        demo == null ? "no demo" : "demo: written " + demo.written() + ", in bucket " + demo.objects(),
                        replay.metrics().pending(), objects.metrics().finishedCount("DONE"),
                        objects.metrics().finishedCount("NOOP_RESOLVED"),
                        objects.metrics().finishedCount("SKIPPED_OBJECT_LOCK"), objects.metrics().parkedCount(),
                        totalLag);
                out.flush();
                if (exitAfterSeconds > 0 && System.nanoTime() - started > TimeUnit.SECONDS.toNanos(exitAfterSeconds)) {
                    return;
                }
            }
        }
    }
}
