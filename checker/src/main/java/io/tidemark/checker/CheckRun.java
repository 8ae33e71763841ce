package io.tidemark.checker;

import io.grpc.Status;
import io.tidemark.checker.model.History;
import io.tidemark.checker.model.HistoryGenerator;
import io.tidemark.checker.model.Oracle;
import io.tidemark.checker.model.Step;
import io.tidemark.checker.model.TraceEvent;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.localcluster.LocalCluster;
import io.tidemark.messages.LifecycleEvent;
import io.tidemark.objectprocessor.DeadLetters;
import io.tidemark.seaweed.pb.S3LifecycleProto;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * One history run against the pipeline on a local cluster: its buckets created, the four services started in this
 * process under a topic prefix and ZooKeeper chroot of their own (so runs can share a cluster), the steps carried out
 * at the checker's pace with faults healing on their own timers, a quiet time for the pipeline to finish, and the
 * trace judged by the oracle.
 */
final class CheckRun {

    private static final AtomicInteger RUNS = new AtomicInteger();
    /** What a run's bucket names start with: {@code r<n>-<hex>-}, before the history's own names. */
    private static final java.util.regex.Pattern RUN_PREFIX = java.util.regex.Pattern.compile("^r\\d+-[0-9a-f]+-");

    /** A bucket of a run as the history names it, without the run's prefix: the same in every run of the history. */
    static String historyBucket(String runBucket) {
        return RUN_PREFIX.matcher(runBucket).replaceFirst("");
    }

    /**
     * @param graceDays how long, in lifecycle days, the pipeline may take to act on what is due
     * @param race      a change this close before a lifecycle action may have come after the pipeline's last check
     * @param instances instances of each service
     * @param processMain the services' entry point, to run them as processes; null to run them in this process
     */
    record Settings(int daySeconds, int graceDays, Duration race, Duration pace, Duration passInterval,
                    int instances, Class<?> processMain) {

        Duration day() {
            return Duration.ofSeconds(daySeconds);
        }

        Duration grace() {
            return day().multipliedBy(graceDays);
        }
    }

    /** What a run found, and what it did to find it. */
    record Result(History history, Oracle.Verdict verdict, List<String> failedServices, int serviceFailures,
                  int refused, Duration took, List<TraceEvent> trace, List<LifecycleEvent> audit, Coverage coverage) {

        boolean clean() {
            return verdict.findings().isEmpty() && failedServices.isEmpty();
        }
    }

    /** The session timeout of the run's groups (kafka.consumer.session.timeout.ms) and a process's start. */
    private static final Duration KILLED_MEMBER_RECOVERY = Duration.ofSeconds(20);

    /** How long after a Kafka or ZooKeeper restart a service's failure is the restart's doing. */
    private static final Duration CLUSTER_FAULT_SHADOW = Duration.ofSeconds(60);

    private final LocalCluster cluster;
    private final Settings settings;
    private final Path stateDir;
    private final List<Instant> clusterFaults = new java.util.concurrent.CopyOnWriteArrayList<>();

    CheckRun(LocalCluster cluster, Settings settings, Path stateDir) {
        this.cluster = cluster;
        this.settings = settings;
        this.stateDir = stateDir;
    }

    Result run(History history) throws Exception {
        long began = System.nanoTime();
        String runId = "r" + RUNS.incrementAndGet() + "-" + Long.toHexString(System.nanoTime() & 0xffffff);
        FilerEmulator emulator = cluster.emulator();
        Set<String> buckets = history.buckets().stream().map(History.BucketSpec::name).collect(Collectors.toSet());
        String prefix = runId + "-";
        Recorder recorder = new Recorder(emulator.s3(), Clock.systemUTC(), prefix, buckets);
        Coverage coverage = new Coverage();
        Map<String, String> runSettings = settings(runId);
        TidemarkConfig config = new TidemarkConfig(runSettings);
        ScheduledExecutorService heals = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "checker-heals");
            t.setDaemon(true);
            return t;
        });
        try (AutoCloseable listening = emulator.addLifecycleListener(recorder);
             Pipeline pipeline = new Pipeline(runSettings, settings.instances(), settings.processMain(),
                     stateDir.resolveSibling("logs").resolve(runId))) {
            for (History.BucketSpec bucket : history.buckets()) {
                recorder.createBucket(bucket.name(), bucket.objectLock(), bucket.versioned());
            }
            pipeline.start(settings.passInterval());
            for (Step step : history.steps()) {
                coverage.step(step);
                if (step.kind() == Step.Kind.WAIT) {
                    Thread.sleep(step.number());
                } else if (step.fault()) {
                    strike(step, prefix + step.bucket(), config, emulator, pipeline, recorder, coverage, heals);
                } else {
                    recorder.apply(step);
                    if (step.kind() == Step.Kind.HOLD_LIFTED) {
                        heals.schedule(() -> recorder.lift(step), step.number(), TimeUnit.MILLISECONDS);
                    }
                    Thread.sleep(settings.pace().toMillis());
                }
            }
            // Every heal still scheduled runs — a Kafka restart under way completes, a BLOCKED key's dead letters
            // are replayed as the history promised — before the quiet time starts.
            heals.shutdown();
            if (!heals.awaitTermination(settings.grace().toMillis() + 60_000, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("the faults did not heal within the grace period and a minute");
            }
            emulator.faults().clearAll();
            emulator.faults().setUnavailableProbability(0);
            emulator.faults().setLatency(Duration.ZERO);
            // Long enough for whatever fell due at the last step to be acted on, and for a lost one to show. A service
            // killed with SIGKILL near the end keeps its partitions until its group's session times out, and a new
            // process takes seconds to start: Kafka's group semantics, not a loss, so that time is added.
            Thread.sleep(settings.grace().plus(settings.day()).plus(settings.processMain() != null
                    ? KILLED_MEMBER_RECOVERY : Duration.ZERO).toMillis());
            Instant end = Instant.now();
            List<Pipeline.Failure> failures = pipeline.failures();
            List<String> failed = failures.stream().filter(f -> !explained(f)).map(f -> f.instance() + " failed at "
                    + f.at() + ": " + f.cause()).toList();
            List<TraceEvent> trace = recorder.trace();
            Oracle.Verdict verdict = new Oracle(config.ruleReader(), settings.grace(), settings.race())
                    .judge(trace, end);
            // The audit trail is read only when there is something to explain.
            List<LifecycleEvent> audit = verdict.findings().isEmpty() ? List.of() : AuditTrail.read(config);
            return new Result(history, verdict, failed, failures.size(), recorder.refused(),
                    Duration.ofNanos(System.nanoTime() - began), trace, audit, coverage);
        } finally {
            heals.shutdownNow();
            // The cluster outlives the run: a run that ended early must not leave the next one a filer down or skewed.
            healFilers(emulator);
            // The next run's populator enumerates every bucket on the filer: it must not inherit this run's.
            for (History.BucketSpec bucket : history.buckets()) {
                try {
                    emulator.s3().deleteBucket(prefix + bucket.name());
                } catch (RuntimeException e) {
                    // Already gone, or never created: nothing left behind either way.
                }
            }
        }
    }

    private void strike(Step step, String bucket, TidemarkConfig config, FilerEmulator emulator, Pipeline pipeline,
                        Recorder recorder, Coverage coverage, ScheduledExecutorService heals) {
        recorder.fault(step.kind() == Step.Kind.RESTART_SERVICE && settings.processMain() != null
                ? step + " (SIGKILL)" : step.toString());
        Duration length = Duration.ofMillis(step.number());
        switch (step.kind()) {
            case RESTART_SERVICE -> pipeline.restart(step.arg(), length, true);
            case FILER_UNAVAILABLE -> {
                emulator.faults().setUnavailableProbability(0.3);
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> emulator.faults().setUnavailableProbability(0), step.number(),
                        TimeUnit.MILLISECONDS);
            }
            case FILER_SLOW -> {
                emulator.faults().setLatency(Duration.ofMillis(Long.parseLong(step.arg())));
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> emulator.faults().setLatency(Duration.ZERO), step.number(),
                        TimeUnit.MILLISECONDS);
            }
            case GATEWAY_RETRY_LATER -> {
                emulator.faults().force(bucket, step.key(), S3LifecycleProto.LifecycleDeleteOutcome.RETRY_LATER,
                        "checker fault");
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> emulator.faults().clearForced(bucket, step.key()), step.number(),
                        TimeUnit.MILLISECONDS);
            }
            case GATEWAY_BLOCKED -> {
                emulator.faults().force(bucket, step.key(), S3LifecycleProto.LifecycleDeleteOutcome.BLOCKED,
                        "checker fault");
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> {
                    emulator.faults().clearForced(bucket, step.key());
                    replayDeadLetters(config, recorder);
                }, step.number(), TimeUnit.MILLISECONDS);
            }
            case GATEWAY_UNKNOWN -> {
                emulator.faults().fail("LifecycleDelete", Status.Code.UNKNOWN, (int) step.number());
                coverage.faultOn(step.kind(), Duration.ofSeconds(2));
            }
            case KAFKA_RESTART -> {
                clusterFaults.add(Instant.now());
                coverage.faultOn(step.kind(), length.plusSeconds(10));
                heals.execute(() -> {
                    cluster.restartKafka(false, length);
                    recorder.fault("Kafka is back");
                });
            }
            case ZOOKEEPER_RESTART -> {
                clusterFaults.add(Instant.now());
                coverage.faultOn(step.kind(), Duration.ofSeconds(10));
                heals.execute(() -> {
                    cluster.restartZooKeeper(false);
                    recorder.fault("ZooKeeper is back");
                });
            }
            case CLOCK_SKEW -> {
                pipeline.skewClock(step.skewedInstance(), Duration.ofMillis(step.skewMillis()));
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> {
                    pipeline.unskewClock(step.skewedInstance(), Duration.ofMillis(step.skewMillis()));
                    recorder.fault("the clock of " + step.skewedInstance() + " is right again");
                }, step.number(), TimeUnit.MILLISECONDS);
            }
            case DLQ_REPLAY -> {
                coverage.faultOn(step.kind(), Duration.ofSeconds(1));
                heals.execute(() -> replayDeadLetters(config, recorder));
            }
            case FILER_STOP -> {
                emulator.stopFiler(step.filer());
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> {
                    emulator.startFiler(step.filer());
                    recorder.fault("filer " + step.filer() + " is back");
                }, step.number(), TimeUnit.MILLISECONDS);
            }
            case CORRUPT_TIMER -> {
                coverage.faultOn(step.kind(), Duration.ofSeconds(5));
                List<String> runBuckets = recorder.buckets();
                pipeline.whileStopped("replay-streams", Duration.ofSeconds(1), () -> {
                    var corrupted = TimerCorruption.corruptOne(config, runBuckets, Instant.now(), step.number());
                    recorder.fault(corrupted.map(t -> "timer " + t.timerId() + " (due " + t.due() + ") made unreadable")
                            .orElse("no armed timer to make unreadable"));
                });
            }
            case FILER_CLOCK_SKEW -> {
                // Set, not added to: two skews of one filer overlapping stay within the bound the generator keeps.
                emulator.setFilerClockOffset(step.filer(), Duration.ofMillis(step.skewMillis()));
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> {
                    emulator.setFilerClockOffset(step.filer(), Duration.ZERO);
                    recorder.fault("the clock of filer " + step.filer() + " is right again");
                }, step.number(), TimeUnit.MILLISECONDS);
            }
            case FILER_STREAM_LATE -> {
                emulator.delayLocalStream(step.filer(), Duration.ofMillis(step.skewMillis()));
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> {
                    emulator.delayLocalStream(step.filer(), Duration.ZERO);
                    recorder.fault("filer " + step.filer() + "'s stream is on time again");
                }, step.number(), TimeUnit.MILLISECONDS);
            }
            case LISTINGS_LATE -> {
                // One key's listings (its .versions directory's among them) when the step names one, else all.
                emulator.faults().answerLate(Set.of("ListEntries"), step.key().isEmpty() ? ""
                        : emulator.bucketsDirectory() + "/" + bucket + "/" + step.key(),
                        Duration.ofMillis(Long.parseLong(step.arg())));
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> emulator.faults().answerOnTime(), step.number(), TimeUnit.MILLISECONDS);
            }
            case LISTINGS_FAIL -> {
                emulator.faults().fail("ListEntries", Status.Code.INTERNAL, -1);
                coverage.faultOn(step.kind(), length);
                heals.schedule(() -> {
                    emulator.faults().fail("ListEntries", Status.Code.INTERNAL, 0);
                    recorder.fault("the filer lists again");
                }, step.number(), TimeUnit.MILLISECONDS);
            }
            case WALK_STATES_REFUSED -> {
                coverage.faultOn(step.kind(), length);
                WalkStateRefusal refusal = WalkStateRefusal.open(config);
                try {
                    refusal.refuse();
                } catch (Exception e) {
                    refusal.close();
                    throw new IllegalStateException("walk states not made read-only", e);
                }
                heals.schedule(() -> {
                    try (refusal) {
                        refusal.allow();
                        recorder.fault("walk states writable again");
                    } catch (Exception e) {
                        recorder.fault("walk states not made writable again: " + e);
                    }
                }, step.number(), TimeUnit.MILLISECONDS);
            }
            case CONDUCTOR_PAUSED -> {
                pipeline.skipPasses(length);
                coverage.faultOn(step.kind(), length);
            }
            default -> throw new IllegalArgumentException("not a fault: " + step);
        }
        if (step.kind() == Step.Kind.RESTART_SERVICE) {
            coverage.faultOn(step.kind(), length.plusSeconds(5));
        }
    }

    private static void healFilers(FilerEmulator emulator) {
        for (int i = 0; i < emulator.filerCount(); i++) {
            emulator.startFiler(i);
            emulator.setFilerClockOffset(i, Duration.ZERO);
            emulator.delayLocalStream(i, Duration.ZERO);
        }
    }

    /**
     * A service that fails while Kafka or ZooKeeper is away is doing what it should (a supervisor starts it again); one
     * that fails otherwise stopped on something it should have survived.
     */
    private boolean explained(Pipeline.Failure failure) {
        return clusterFaults.stream().anyMatch(at -> !failure.at().isBefore(at)
                && Duration.between(at, failure.at()).compareTo(CLUSTER_FAULT_SHADOW) <= 0);
    }

    /** {@code tidemark dlq replay} of everything parked: what the rules still ask for is owed again. */
    private static void replayDeadLetters(TidemarkConfig config, Recorder recorder) {
        try {
            DeadLetters deadLetters = new DeadLetters(config);
            int sent = deadLetters.replay(deadLetters.read(Duration.ofSeconds(10)), Clock.systemUTC()).sent().size();
            recorder.fault("dead letters replayed: " + sent);
        } catch (Exception e) {
            recorder.fault("dead letters not replayed: " + e);
        }
    }

    private Map<String, String> settings(String runId) {
        Map<String, String> s = new LinkedHashMap<>(cluster.settings());
        s.put("zookeeper.chroot", "/checker-" + runId);
        s.put("topic.prefix", "checker." + runId + ".");
        s.put("shard.bits", "2");
        s.put("lifecycle.day.seconds", String.valueOf(settings.daySeconds()));
        s.put("lifecycle.test.mode", "true");
        s.put("lifecycle.due.policy", "exact");
        s.put("management.host", "127.0.0.1");
        s.put("management.port", "0");
        s.put("populator.batch.max.ms", "50");
        long hold = HistoryGenerator.filerHoldMillis(settings.daySeconds() * 1_000L);
        s.put("populator.filers.hold.max.ms", String.valueOf(hold));
        s.put("populator.filers.discovery.ms", String.valueOf(Math.max(100, hold / 2)));
        s.put("populator.filers.flush.interval.ms",
                String.valueOf(HistoryGenerator.filerFlushMillis(settings.daySeconds() * 1_000L)));
        s.put("replay-streams.punctuate.interval.ms", "200");
        s.put("replay-streams.state.dir", stateDir.resolve(runId).toString());
        s.put("object-processor.deletes.per.second", "unlimited");
        s.put("object-processor.rules.max.age.ms", "200");
        s.put("object-processor.retry-later.max.attempts", "1000");
        // A quarter of a two-second day: a task answered RETRY_LATER is tried again soon after the answer changes.
        s.put("object-processor.retry.backoff.max.ms", "500");
        s.put("kafka.streams.commit.interval.ms", "100");
        s.put("kafka.consumer.session.timeout.ms", "10000");
        // Streams' own default is 45 s: a replay-streams member killed with SIGKILL would hold its shards that long
        // (found by the first process run, seed 908: two expirations past the grace).
        s.put("kafka.streams.session.timeout.ms", "10000");
        s.put("conductor.walk.stale.ms", "30000");
        return s;
    }
}
