package io.tidemark.cli.campaign;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.cli.objectprocessor.ExpirationTasks;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.seaweed.EpochNanos;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerEvent;
import io.tidemark.seaweed.client.MetadataSubscription;
import io.tidemark.seaweed.client.SubscriptionOptions;
import io.tidemark.seaweed.pb.FilerProto.EventNotification;
import io.tidemark.service.ManagedService;
import io.tidemark.topics.TopicAdmin;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "pipeline-bench", mixinStandardHelpOptions = true,
        description = {"Measures the pipeline end to end on an in-process Kafka, ZooKeeper and emulator with the "
                + "populator, replay-streams and the object processor: how long after its due time each object is "
                + "deleted (from the filer's own meta-log: the delete event's time less the due time), for a burst "
                + "falling due together and for a steady stream; and deletes/s end to end against the object "
                + "processor alone (tasks published straight to object-tasks) in the same run."})
public final class PipelineBenchCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--burst", defaultValue = "5000", description = "Objects falling due together (default ${DEFAULT-VALUE}).")
    private int burst;

    @Option(names = "--rate", defaultValue = "1000", description = "Objects per second in the steady phase (default ${DEFAULT-VALUE}).")
    private int rate;

    @Option(names = "--seconds", defaultValue = "20", description = "Length of the steady phase (default ${DEFAULT-VALUE}).")
    private int seconds;

    @Option(names = "--day-seconds", defaultValue = "10", description = "Length of a lifecycle day (default ${DEFAULT-VALUE}).")
    private int daySeconds;

    @Option(names = "--fired-per-tick", defaultValue = "10000",
            description = "replay-streams.max.fired.per.tick for the run (default ${DEFAULT-VALUE}, the setting's default).")
    private int firedPerTick;

    /** When each deleted path's delete event happened (filer time), from the meta-log. */
    private final Map<String, Long> deletedAtNs = new ConcurrentHashMap<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (LocalCluster cluster = LocalCluster.builder().mode(LocalCluster.Mode.IN_PROCESS).start()) {
            TidemarkConfig config = new TidemarkConfig(Map.ofEntries(
                    Map.entry("kafka.bootstrap.servers", cluster.kafkaBootstrapServers()),
                    Map.entry("zookeeper.connect", cluster.zookeeperConnect()),
                    Map.entry("filer.address", cluster.emulator().filerAddress()),
                    Map.entry("s3.grpc.address", cluster.emulator().s3GrpcAddress()),
                    Map.entry("lifecycle.day.seconds", String.valueOf(daySeconds)),
                    Map.entry("lifecycle.due.policy", "exact"),
                    Map.entry("replay-streams.state.dir", Files.createTempDirectory("tidemark-bench").toString()),
                    Map.entry("replay-streams.punctuate.interval.ms", "200"),
                    Map.entry("replay-streams.max.fired.per.tick", String.valueOf(firedPerTick)),
                    Map.entry("object-processor.deletes.per.second", "0"),
                    Map.entry("kafka.streams.commit.interval.ms", "100")));
            S3Gateway s3 = cluster.emulator().s3();
            PopulatorService populator = new PopulatorService(config, Clock.systemUTC(), new SimpleMeterRegistry());
            ReplayStreamsService replay = new ReplayStreamsService(config, new SimpleMeterRegistry());
            ObjectProcessorService objects = new ObjectProcessorService(config, Clock.systemUTC(),
                    new SimpleMeterRegistry());
            List<ManagedService> services = List.of(populator, replay, objects);
            AtomicBoolean watching = new AtomicBoolean(true);
            try (FilerClient filer = FilerClient.connect(cluster.emulator().filerAddress(),
                    io.tidemark.seaweed.client.GrpcTls.PLAINTEXT, Duration.ofSeconds(30))) {
                Thread watcher = watchDeletes(filer, watching);
                services.forEach(ManagedService::start);
                // As long as it takes: a benchmark has no deadline of its own.
                ManagedService.awaitReady(services, Duration.ofDays(1));
                s3.createBucket("bench", false);
                s3.putLifecycle("bench", "<LifecycleConfiguration><Rule><ID>a-day</ID><Filter><Prefix></Prefix>"
                        + "</Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>"
                        + "</LifecycleConfiguration>");
                Thread.sleep(2_000);
                out.printf(Locale.ROOT, "pipeline benchmark: day %d s, burst %d, steady %d/s for %d s%n", daySeconds,
                        burst, rate, seconds);

                Map<String, Instant> burstDue = fallDueTogether(s3, write(s3, "burst/", burst, Integer.MAX_VALUE));
                // Where the burst stands each second, stage by stage, from the due instant on.
                Thread progress = progress(out, burstDue.values().iterator().next(), populator, replay, objects);
                Phase b = await(burstDue, Duration.ofSeconds(daySeconds + 120));
                progress.interrupt();
                report(out, "burst", b);

                Map<String, Instant> steadyDue = write(s3, "steady/", rate * seconds, rate);
                Phase s = await(steadyDue, Duration.ofSeconds(daySeconds + 120));
                report(out, "steady", s);

                Phase alone = objectProcessorAlone(config, s3, burst);
                out.printf(Locale.ROOT, "object processor alone: %d deletes in %.1f s, %.0f deletes/s%n", alone.count,
                        alone.spanSeconds, alone.count / alone.spanSeconds);
                out.printf(Locale.ROOT, "end to end / object processor alone (burst): %.2f (target 0.8); steady p99 "
                        + "%.2f s at %d due/s (target ≤ 5 s)%n", (b.count / b.spanSeconds)
                        / (alone.count / alone.spanSeconds), s.p99, rate);
                watching.set(false);
                watcher.join(5_000);
            } finally {
                for (int i = services.size() - 1; i >= 0; i--) {
                    services.get(i).close();
                }
            }
        }
        return 0;
    }

    private Thread progress(PrintWriter out, Instant due, PopulatorService populator, ReplayStreamsService replay,
                            ObjectProcessorService objects) {
        Thread t = new Thread(() -> {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    Thread.sleep(1_000);
                    out.printf(Locale.ROOT, "  t%+.0fs: populator published %d | replay armed %d, fired %d, pending %d "
                                    + "| object processor done %d | deletes seen %d%n",
                            Duration.between(due, Instant.now()).toMillis() / 1e3, populator.metrics().published(),
                            replay.metrics().total("tidemark.replay.timers.armed", "expiration_days"),
                            replay.metrics().total("tidemark.replay.timers.fired", "expiration_days"),
                            replay.metrics().pending(), objects.metrics().finishedCount("DONE"), deletedAtNs.size());
                    out.flush();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-progress");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private Thread watchDeletes(FilerClient filer, AtomicBoolean watching) {
        Thread t = new Thread(() -> {
            try (MetadataSubscription subscription = filer.subscribe(SubscriptionOptions.from("tidemark-bench",
                    "/buckets/", EpochNanos.of(Instant.now())))) {
                while (watching.get()) {
                    FilerEvent event = subscription.pollEvent(Duration.ofMillis(200));
                    if (event == null) {
                        continue;
                    }
                    EventNotification n = event.response().getEventNotification();
                    if (n.hasOldEntry() && !n.hasNewEntry() && !n.getOldEntry().getIsDirectory()) {
                        String path = event.response().getDirectory() + "/" + n.getOldEntry().getName();
                        deletedAtNs.put(path, event.response().getTsNs());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "bench-delete-watcher");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Writes {@code count} objects at up to {@code perSecond}; returns each path's due instant (mtime + a day). */
    private Map<String, Instant> write(S3Gateway s3, String prefix, int count, int perSecond) throws InterruptedException {
        Map<String, Instant> due = new java.util.LinkedHashMap<>();
        long began = System.nanoTime();
        for (int i = 0; i < count; i++) {
            if (perSecond != Integer.MAX_VALUE) {
                long target = began + (long) i * 1_000_000_000L / perSecond;
                long wait = target - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
            }
            String key = prefix + String.format(Locale.ROOT, "o-%07d", i);
            s3.putObject("bench", key, 100, Map.of(), Map.of());
            long mtime = s3.latest("bench", key).orElseThrow().entry().getAttributes().getMtime();
            due.put("/buckets/bench/" + key, Instant.ofEpochSecond(mtime).plusSeconds(daySeconds));
        }
        return due;
    }

    /**
     * Gives every object of the burst the same modification time, so that they all fall due at one instant a few
     * seconds from now (writing them took a while, which would otherwise spread their due times).
     */
    private Map<String, Instant> fallDueTogether(S3Gateway s3, Map<String, Instant> written) {
        Instant mtime = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).plusSeconds(8)
                .minusSeconds(daySeconds);
        Map<String, Instant> due = new java.util.LinkedHashMap<>();
        for (String path : written.keySet()) {
            String key = path.substring("/buckets/bench/".length());
            s3.backdate("bench", key, null, mtime);
            due.put(path, mtime.plusSeconds(daySeconds));
        }
        return due;
    }

    private record Phase(int count, int missing, double p50, double p99, double max, double spanSeconds) {
    }

    /** Waits for every path's delete, then the latency figures (seconds after due) and the span of the deletes. */
    private Phase await(Map<String, Instant> due, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline && !deletedAtNs.keySet().containsAll(due.keySet())) {
            Thread.sleep(200);
        }
        List<Double> late = new ArrayList<>();
        long firstDue = Long.MAX_VALUE;
        long lastDelete = Long.MIN_VALUE;
        int missing = 0;
        for (Map.Entry<String, Instant> e : due.entrySet()) {
            Long deleted = deletedAtNs.get(e.getKey());
            if (deleted == null) {
                missing++;
                continue;
            }
            long dueNs = EpochNanos.of(e.getValue());
            late.add((deleted - dueNs) / 1e9);
            firstDue = Math.min(firstDue, dueNs);
            lastDelete = Math.max(lastDelete, deleted);
        }
        late.sort(null);
        double span = Math.max(0.001, (lastDelete - firstDue) / 1e9);
        return new Phase(late.size(), missing, percentile(late, 0.50), percentile(late, 0.99),
                late.isEmpty() ? Double.NaN : late.get(late.size() - 1), span);
    }

    private static double percentile(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
    }

    private static void report(PrintWriter out, String name, Phase p) {
        out.printf(Locale.ROOT, "%s: %d deleted (%d missing), due→deleted p50 %.2f s, p99 %.2f s, max %.2f s; "
                + "%.0f deletes/s from the first due time to the last delete%n", name, p.count, p.missing, p.p50,
                p.p99, p.max, p.count / p.spanSeconds);
        out.flush();
    }

    /** The object processor on its own: the same number of tasks published straight to object-tasks. */
    private Phase objectProcessorAlone(TidemarkConfig config, S3Gateway s3, int count) throws Exception {
        s3.createBucket("bench-alone", false);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = String.format(Locale.ROOT, "o-%07d", i);
            s3.putObject("bench-alone", key, 100, Map.of(), Map.of());
            keys.add(key);
        }
        TopicRegistry topics = TopicRegistry.from(config);
        try (Admin admin = Admin.create(config.adminProperties())) {
            new TopicAdmin(admin, (short) -1).ensure(List.of(topics.objectTasks()));
        }
        Map<String, Instant> published = new java.util.LinkedHashMap<>();
        Instant first = Instant.now();
        ExpirationTasks.publish(config, topics, s3, "bench-alone", keys);
        // Measured from the first task sent, as the pipeline's figure is from the first due time.
        keys.forEach(k -> published.put("/buckets/bench-alone/" + k, first));
        return await(published, Duration.ofSeconds(120));
    }
}
