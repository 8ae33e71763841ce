package io.tidemark.devtools.campaign;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.devtools.bench.CpuByRole;
import io.tidemark.devtools.bench.ExpirationTasks;
import io.tidemark.devtools.bench.Latencies;
import io.tidemark.emulator.s3.S3Gateway;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.objectprocessor.ObjectProcessorService;
import io.tidemark.populator.PopulatorService;
import io.tidemark.replay.ReplayStreamsService;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.service.ManagedService;
import io.tidemark.service.Metrics;
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
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "pipeline-bench", mixinStandardHelpOptions = true,
        description = {"Measures the pipeline end to end on an in-process Kafka, ZooKeeper and emulator with the "
                + "populator, replay-streams and the object processor: how long after its due time each object is "
                + "deleted (from the filer's own meta-log: the delete event's time less the due time), for a burst "
                + "falling due together and for a steady stream; and deletes/s end to end against the object "
                + "processor alone (tasks published straight to object-tasks), round by round after a warm-up, "
                + "with the CPU each part used."})
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

    @Option(names = "--fire-time-per-tick-ms",
            description = "replay-streams.max.fire.time.per.tick.ms for the run (default: the setting's default).")
    private Long fireTimePerTickMs;

    @Option(names = "--rounds", defaultValue = "5",
            description = "Measured rounds, each a burst through the pipeline then the object processor alone on as "
                    + "many tasks (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Option(names = "--warm-up", defaultValue = "20000",
            description = "Objects of an unmeasured burst, and as many tasks for the processor alone, before the "
                    + "rounds (default ${DEFAULT-VALUE}; 0 for none): the JIT compiles every stage's code on the way, "
                    + "which would otherwise weigh on the first rounds and not on the alone phases after them.")
    private int warmUp;

    /** The tag the bench's rule expires objects by. */
    private static final String DUE_TAG = "bench-expire";

    /** The filer's deletes, as its meta-log tells them; open while the command runs. */
    private DeleteWatcher deletes;
    /** The object processor's meters: its own lateness histogram, set beside the filer's figures. */
    private MeterRegistry objectMeters;
    private ObjectProcessorService objectProcessor;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        try (LocalCluster cluster = LocalCluster.builder().mode(LocalCluster.Mode.IN_PROCESS).start()) {
            Map<String, String> settings = new java.util.HashMap<>(Map.ofEntries(
                    Map.entry("kafka.bootstrap.servers", cluster.kafkaBootstrapServers()),
                    Map.entry("zookeeper.connect", cluster.zookeeperConnect()),
                    Map.entry("filer.address", cluster.emulator().filerAddress()),
                    Map.entry("s3.grpc.address", cluster.emulator().s3GrpcAddress()),
                    Map.entry("lifecycle.day.seconds", String.valueOf(daySeconds)),
                    Map.entry("lifecycle.test.mode", "true"),
                    Map.entry("lifecycle.due.policy", "exact"),
                    Map.entry("replay-streams.state.dir", Files.createTempDirectory("tidemark-bench").toString()),
                    Map.entry("replay-streams.punctuate.interval.ms", "200"),
                    Map.entry("replay-streams.max.fired.per.tick", String.valueOf(firedPerTick)),
                    Map.entry("object-processor.deletes.per.second", "unlimited"),
                    Map.entry("kafka.streams.commit.interval.ms", "100")));
            if (fireTimePerTickMs != null) {
                settings.put("replay-streams.max.fire.time.per.tick.ms", fireTimePerTickMs.toString());
            }
            TidemarkConfig config = new TidemarkConfig(settings);
            S3Gateway s3 = cluster.emulator().s3();
            PopulatorService populator = new PopulatorService(config, Clock.systemUTC(), new SimpleMeterRegistry());
            ReplayStreamsService replay = new ReplayStreamsService(config, Clock.systemUTC(),
                    new SimpleMeterRegistry());
            // As the service registers its meters when it runs: histograms cumulative since the start, which a
            // SimpleMeterRegistry's are not (they decay over a two-minute window).
            objectMeters = Metrics.newRegistry("object-processor");
            ObjectProcessorService objects = new ObjectProcessorService(config, Clock.systemUTC(), objectMeters);
            objectProcessor = objects;
            List<ManagedService> services = List.of(populator, replay, objects);
            try (FilerClient filer = FilerClient.connect(cluster.emulator().filerAddress(),
                    io.tidemark.seaweed.client.GrpcTls.PLAINTEXT, Duration.ofSeconds(30));
                 DeleteWatcher watcher = DeleteWatcher.start(filer)) {
                deletes = watcher;
                services.forEach(ManagedService::start);
                // As long as it takes: a benchmark has no deadline of its own.
                ManagedService.awaitReady(services, Duration.ofDays(1));
                s3.createBucket("bench", false);
                // Only tagged objects expire: a burst is written untagged (no timer), given its one modification
                // time, then tagged, so each object costs one timer and one task (see burst).
                s3.putLifecycle("bench", "<LifecycleConfiguration><Rule><ID>a-day</ID><Filter><Tag><Key>"
                        + DUE_TAG + "</Key><Value>yes</Value></Tag></Filter><Status>Enabled</Status><Expiration>"
                        + "<Days>1</Days></Expiration></Rule></LifecycleConfiguration>");
                Thread.sleep(2_000);
                out.printf(Locale.ROOT, "pipeline benchmark: day %d s, burst %d, %d rounds after a warm-up of %d, "
                        + "steady %d/s for %d s%n", daySeconds, burst, rounds, warmUp, rate, seconds);

                s3.createBucket("bench-alone", false);
                TopicRegistry topics = TopicRegistry.from(config);
                try (Admin admin = Admin.create(config.adminProperties())) {
                    new TopicAdmin(admin, (short) -1).ensure(List.of(topics.objectTasks()));
                }
                if (warmUp > 0) {
                    burst(out, "warm-up burst (not measured)", s3, "warm-up/", warmUp, null);
                    objectProcessorAlone(out, config, topics, s3, "warm-up/", warmUp);
                }
                List<Double> pipelineRates = new ArrayList<>();
                List<Double> aloneRates = new ArrayList<>();
                for (int round = 1; round <= rounds; round++) {
                    // Where the first burst stands each second, stage by stage, from the due instant on.
                    PipelineProgress progress = round == 1
                            ? new PipelineProgress(populator, replay, objects, deletes) : null;
                    DeleteWatcher.Phase b = burst(out, "round " + round + ": burst", s3, "burst-" + round + "/", burst,
                            progress);
                    DeleteWatcher.Phase alone = objectProcessorAlone(out, config, topics, s3, "round-" + round + "/",
                            burst);
                    out.printf(Locale.ROOT, "round %d: end to end / object processor alone %.0f / %.0f = %.2f "
                                    + "(from the first delete on: %.0f deletes/s, %.2f)%n", round, b.rate(),
                            alone.rate(), b.rate() / alone.rate(), b.drainRate(), b.drainRate() / alone.rate());
                    out.flush();
                    pipelineRates.add(b.rate());
                    aloneRates.add(alone.rate());
                }

                LatenessHistogram beforeSteady = LatenessHistogram.read(objectMeters, "timer");
                Map<String, Instant> steadyDue = write(s3, "steady/", rate * seconds, rate, true);
                DeleteWatcher.Phase s = deletes.await(steadyDue, Duration.ofSeconds(daySeconds + 120));
                report(out, "steady", s, LatenessHistogram.read(objectMeters, "timer").since(beforeSteady));

                List<Double> ratios = new ArrayList<>();
                for (int i = 0; i < rounds; i++) {
                    ratios.add(pipelineRates.get(i) / aloneRates.get(i));
                }
                double bestPipeline = pipelineRates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
                double bestAlone = aloneRates.stream().mapToDouble(Double::doubleValue).max().orElse(0);
                out.printf(Locale.ROOT, "end to end / object processor alone (burst of %d): best %.0f / best %.0f "
                                + "deletes/s = %.2f, median of the rounds' ratios %.2f (target 0.8); steady p99 %.2f s "
                                + "at %d due/s (target ≤ 5 s)%n", burst, bestPipeline, bestAlone,
                        bestPipeline / bestAlone, Latencies.of(ratios).percentile(0.50), s.p99(), rate);
            } finally {
                for (int i = services.size() - 1; i >= 0; i--) {
                    services.get(i).close();
                }
            }
        }
        return 0;
    }

    /**
     * A burst of objects that fall due together, through the whole pipeline: written, given one modification time,
     * and awaited until every one is deleted. The CPU figures run from the due instant to the last delete.
     */
    private DeleteWatcher.Phase burst(PrintWriter out, String name, S3Gateway s3, String prefix, int count,
                                      PipelineProgress progress)
            throws InterruptedException {
        LatenessHistogram before = LatenessHistogram.read(objectMeters, "timer");
        long doneBefore = objectProcessor.metrics().finishedCount("DONE");
        long noopBefore = objectProcessor.metrics().finishedCount("NOOP_RESOLVED");
        long walksBefore = objectProcessor.metrics().walksRequested();
        Map<String, Instant> due = fallDueTogether(s3, write(s3, prefix, count, Integer.MAX_VALUE, false));
        Instant dueAt = due.values().iterator().next();
        Thread printer = progress == null ? null : progress.start(out, dueAt);
        Thread.sleep(Math.max(0, Duration.between(Instant.now(), dueAt).toMillis()));
        CpuByRole cpu = CpuByRole.now();
        DeleteWatcher.Phase phase = deletes.await(due, Duration.ofSeconds(daySeconds + 120));
        if (printer != null) {
            printer.interrupt();
        }
        Map<String, Double> used = CpuByRole.now().since(cpu);
        report(out, name, phase, LatenessHistogram.read(objectMeters, "timer").since(before));
        long done = objectProcessor.metrics().finishedCount("DONE") - doneBefore;
        long noop = objectProcessor.metrics().finishedCount("NOOP_RESOLVED") - noopBefore;
        out.printf(Locale.ROOT, "  tasks: %.2f per object (%d DONE, %d NOOP_RESOLVED), %d key walks asked for%n",
                (done + noop) / (double) Math.max(1, count), done, noop,
                objectProcessor.metrics().walksRequested() - walksBefore);
        out.printf(Locale.ROOT, "  from the due instant: %s%n", CpuByRole.perMillion(used, phase.count(), "deletes"));
        return phase;
    }

    /**
     * Writes {@code count} objects at up to {@code perSecond}, tagged to expire or not; returns each path's due
     * instant (mtime + a day).
     */
    private Map<String, Instant> write(S3Gateway s3, String prefix, int count, int perSecond, boolean tagged)
            throws InterruptedException {
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
            s3.putObject("bench", key, 100, tagged ? Map.of(DUE_TAG, "yes") : Map.of(), Map.of());
            long mtime = s3.latest("bench", key).orElseThrow().entry().getAttributes().getMtime();
            due.put("/buckets/bench/" + key, Instant.ofEpochSecond(mtime).plusSeconds(daySeconds));
        }
        return due;
    }

    /**
     * Gives every object of the burst the same modification time, so that they all fall due at one instant a few
     * seconds from now (writing them took a while, which would otherwise spread their due times), then tags them to
     * expire. Written untagged, they had no timer; tagged after their modification time is set, each gets one timer
     * for that instant and costs one task. (Tagged as they were written, a burst that takes longer to write than a
     * day had each object's first timer fire before its modification time was set: a stale task and a walk for
     * every object.) The lead leaves time to set and tag them all, and the populator and replay-streams time to
     * publish and arm them (over 10 000 updates a second here, and well over 5 000 events a second each).
     */
    private Map<String, Instant> fallDueTogether(S3Gateway s3, Map<String, Instant> written) {
        long leadSeconds = 3 + (2L * written.size() + 9_999) / 10_000;
        Instant mtime = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).plusSeconds(leadSeconds)
                .minusSeconds(daySeconds);
        Map<String, Instant> due = new java.util.LinkedHashMap<>();
        for (String path : written.keySet()) {
            String key = path.substring("/buckets/bench/".length());
            s3.backdate("bench", key, null, mtime);
            due.put(path, mtime.plusSeconds(daySeconds));
        }
        for (String path : written.keySet()) {
            s3.putTags("bench", path.substring("/buckets/bench/".length()), null, Map.of(DUE_TAG, "yes"));
        }
        return due;
    }

    /** What the filer's meta-log says of a phase, and beside it what the object processor's histogram says. */
    private static void report(PrintWriter out, String name, DeleteWatcher.Phase p, LatenessHistogram histogram) {
        out.printf(Locale.ROOT, "%s: %d deleted (%d missing), due→deleted p50 %.2f s, p99 %.2f s, max %.2f s; "
                + "%.0f deletes/s from the first due time to the last delete (the first %.2f s after it)%n"
                + "  %s%n", name, p.count(), p.missing(), p.p50(), p.p99(), p.max(), p.count() / p.spanSeconds(),
                p.firstSeconds(), histogram.describe());
        out.flush();
    }

    /**
     * The object processor on its own: as many tasks as the burst has objects, published straight to object-tasks
     * for objects of a bucket without lifecycle rules, timed from the first task sent to the last delete.
     */
    private DeleteWatcher.Phase objectProcessorAlone(PrintWriter out, TidemarkConfig config, TopicRegistry topics,
            S3Gateway s3,
                                       String prefix, int count) throws Exception {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String key = prefix + String.format(Locale.ROOT, "o-%07d", i);
            s3.putObject("bench-alone", key, 100, Map.of(), Map.of());
            keys.add(key);
        }
        Map<String, Instant> published = new java.util.LinkedHashMap<>();
        CpuByRole cpu = CpuByRole.now();
        // Measured from the first task sent, as the pipeline's figure is from the first due time.
        Instant first = ExpirationTasks.publish(config, topics, s3, "bench-alone", keys);
        keys.forEach(k -> published.put("/buckets/bench-alone/" + k, first));
        DeleteWatcher.Phase alone = deletes.await(published, Duration.ofSeconds(120));
        Map<String, Double> used = CpuByRole.now().since(cpu);
        out.printf(Locale.ROOT, "  object processor alone: %d deletes in %.2f s, %.0f deletes/s; %s%n", alone.count(),
                alone.spanSeconds(), alone.rate(), CpuByRole.perMillion(used, alone.count(), "deletes"));
        return alone;
    }
}
