package io.tidemark.devtools.quickstart;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.bucketprocessor.BucketProcessorService;
import io.tidemark.conductor.ConductorService;
import io.tidemark.conductor.ConductorSettings;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.replay.ReplayStreamsSettings;
import io.tidemark.service.CloseTogether;
import io.tidemark.service.ManagedService;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperConnection;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "quickstart", mixinStandardHelpOptions = true,
        description = {"Runs the whole pipeline on this machine in one process: an embedded Kafka, ZooKeeper and "
                + "SeaweedFS emulator, the populator, replay-streams, the object processor, the bucket processor "
                + "and a conductor passing every minute, with a short lifecycle day. Creates a demo bucket whose "
                + "objects fall due, and shows what happens as it happens.",
            "Prints where its log goes, then TIDEMARK_...=value lines: in a second shell, `set -a; . <(those lines); "
                + "set +a`, then `tidemark status` or `tidemark emulator s3 ...`. The console shows what Tidemark has "
                + "to say and errors; everything else is in the log. Ctrl-C stops everything."})
public final class QuickstartCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(QuickstartCommand.class);

    @Spec
    private CommandSpec spec;

    @Option(names = "--day-seconds", defaultValue = "10",
            description = "Length of a lifecycle day in seconds (default ${DEFAULT-VALUE}).")
    private long daySeconds;

    @Option(names = "--no-demo", description = "Start with no bucket: bring your own with `tidemark emulator s3`.")
    private boolean noDemo;

    @Option(names = "--data-dir", description = "Keep Kafka, ZooKeeper, emulator and timer state here across restarts "
            + "(default: a new directory under ~/.tidemark/quickstart, removed at exit but for its log).")
    private Path dataDir;

    @Option(names = "--refresh-seconds", defaultValue = "2",
            description = "How often the live line is printed (default ${DEFAULT-VALUE}).")
    private int refreshSeconds;

    @Option(names = "--verbose", description = "Also print where the time to READY went, phase by phase (the log "
            + "has it either way).")
    private boolean verbose;

    @Option(names = "--exit-after-seconds", defaultValue = "0", hidden = true,
            description = "Stop by itself after this long (tests); 0 runs until Ctrl-C.")
    private long exitAfterSeconds;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        long began = System.nanoTime();
        QuickstartDirectory directory = dataDir == null ? QuickstartDirectory.fresh() : QuickstartDirectory.kept(dataDir);
        QuickstartLog logFile = QuickstartLog.open(directory.log());
        out.println("Log: " + directory.log() + (dataDir == null ? " (data in " + directory.root()
                + ", removed at exit but for the log)" : ""));
        out.flush();
        StartupPhases phases = new StartupPhases(began);
        List<ManagedService> services = new ArrayList<>();
        CountDownLatch stopping = new CountDownLatch(1);   // tells the live view to end
        CountDownLatch viewEnded = new CountDownLatch(1);  // the live view closed its Kafka client
        LocalCluster[] cluster = new LocalCluster[1];
        // In dependency order: the live view's client, then the services, then the cluster they use. Stopped the
        // other way round, clients would retry against a broker or ensemble already gone and print their traces.
        // The services share nothing but the cluster, so they stop together: the prompt comes back after the
        // slowest of them, not after all of them in turn.
        // The log stays in its file to the end, so whatever is said while stopping goes there too.
        Thread shutdown = new Thread(() -> {
            stopping.countDown();
            try {
                viewEnded.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            long stopBegan = System.nanoTime();
            Map<String, ManagedService> running = new LinkedHashMap<>();
            services.forEach(service -> running.put(service.name(), service));
            CloseTogether.close("quickstart", running);
            long servicesStopped = System.nanoTime();
            if (cluster[0] != null) {
                cluster[0].close();
            }
            directory.close();
            log.info("stopped: the services in {} ms, then the local cluster in {} ms",
                    TimeUnit.NANOSECONDS.toMillis(servicesStopped - stopBegan),
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - servicesStopped));
            if (dataDir == null) {
                out.println("Stopped; the log is kept: " + directory.log());
                out.flush();
            }
        }, "quickstart-shutdown");
        Runtime.getRuntime().addShutdownHook(shutdown);
        try {
            cluster[0] = LocalCluster.builder().mode(LocalCluster.Mode.IN_PROCESS).dataDir(directory.root()).start();
            phases.done("local cluster (Kafka, ZooKeeper, filer emulator)");
            TidemarkConfig config = new TidemarkConfig(settings(cluster[0], directory));
            cluster[0].environment().forEach((name, value) -> out.println(name + "=" + value));
            out.flush();
            forgetOtherLifecycleSettings(config, out);
            services.add(new PopulatorService(config, Clock.systemUTC(), new SimpleMeterRegistry()));
            ReplayStreamsService replay = new ReplayStreamsService(config, Clock.systemUTC(),
                    new SimpleMeterRegistry());
            services.add(replay);
            ObjectProcessorService objects = new ObjectProcessorService(config, Clock.systemUTC(),
                    new SimpleMeterRegistry());
            services.add(objects);
            services.add(new BucketProcessorService(config, Clock.systemUTC(), new SimpleMeterRegistry()));
            services.add(new ConductorService(config, Clock.systemUTC(), new SimpleMeterRegistry(), "* * * * *"));
            for (ManagedService service : services) {
                service.start();
                phases.done(service.name() + " started");
            }
            phases.awaitReady(services, Duration.ofSeconds(60));
            DemoBucket demo = null;
            if (!noDemo) {
                demo = new DemoBucket(cluster[0].emulator().s3());
                demo.create(Clock.systemUTC().instant());
                phases.done("demo bucket written");
            }
            phases.report(verbose ? out : null);
            out.printf(Locale.ROOT, "READY in %.1f s: a lifecycle day lasts %d s%s%n",
                    (System.nanoTime() - began) / 1e9, daySeconds, demo == null ? "" : "; bucket \"" + DemoBucket.BUCKET
                            + "\": logs/ expire a day after writing, archive/ by a past date (the walker, each "
                            + "minute), forgotten uploads are aborted, keep/ stays");
            out.flush();
            new LiveView(out, config, replay, objects, demo, Duration.ofSeconds(refreshSeconds),
                    Duration.ofSeconds(daySeconds)).run(stopping, exitAfterSeconds);
        } finally {
            viewEnded.countDown();
            // Left the live view without Ctrl-C (a failure at start, or the test's time limit): stop everything here.
            if (stopping.getCount() > 0) {
                try {
                    Runtime.getRuntime().removeShutdownHook(shutdown);
                    shutdown.run();
                    logFile.close();
                } catch (IllegalStateException shuttingDown) {
                    // Ctrl-C came meanwhile: the hook is stopping everything.
                }
            }
        }
        return 0;
    }

    /**
     * A quickstart restarted on its --data-dir with another --day-seconds: the services would refuse the lifecycle
     * settings the last run recorded. The cluster is this command's own and every service in it starts now with the
     * same settings, so the old record goes.
     */
    private static void forgetOtherLifecycleSettings(TidemarkConfig config, PrintWriter out) throws Exception {
        try (ZooKeeperConnection zk = ZooKeeperConnection.start(config)) {
            LifecycleSettings settings = new LifecycleSettings(zk.client());
            Optional<LifecycleSettings.Recorded> recorded = settings.read();
            if (recorded.isPresent() && !recorded.get().settings().equals(config.sharedLifecycleSettings())) {
                settings.reset();
                out.println("The last run's lifecycle settings (" + recorded.get().values() + ") give way to this "
                        + "run's.");
                out.flush();
            }
        }
    }

    private Map<String, String> settings(LocalCluster cluster, QuickstartDirectory directory) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put(TidemarkConfig.KAFKA_BOOTSTRAP_SERVERS, cluster.kafkaBootstrapServers());
        settings.put(TidemarkConfig.ZOOKEEPER_CONNECT, cluster.zookeeperConnect());
        settings.put(TidemarkConfig.FILER_ADDRESS, cluster.emulator().filerAddress());
        settings.put(TidemarkConfig.S3_GRPC_ADDRESS, cluster.emulator().s3GrpcAddress());
        settings.put(TidemarkConfig.LIFECYCLE_DAY_SECONDS, String.valueOf(daySeconds));
        // A demo cluster on its own embedded ZooKeeper and emulator: a short day is what it is for.
        settings.put(TidemarkConfig.LIFECYCLE_TEST_MODE, "true");
        settings.put(TidemarkConfig.LIFECYCLE_DUE_POLICY, "exact");
        settings.put(ReplayStreamsSettings.STATE_DIR, directory.root().resolve("replay").toString());
        settings.put(ReplayStreamsSettings.STATUS_INTERVAL_MS, "2000");
        settings.put(ConductorSettings.WALK_STALE_MS, "300000");
        settings.put("kafka.consumer.session.timeout.ms", "10000");
        // Streams does not leave its group on close: restarted on the same --data-dir, replay-streams waited for the
        // last run's member to time out (Kafka's 45 s) before it was READY.
        settings.put("kafka.streams.consumer.session.timeout.ms", "10000");
        settings.put("kafka.streams.commit.interval.ms", "200");
        return settings;
    }
}
