package io.tidemark.checker;

import io.tidemark.checker.model.Finding;
import io.tidemark.checker.model.History;
import io.tidemark.checker.model.HistoryGenerator;
import io.tidemark.checker.model.Step;
import io.tidemark.localcluster.LocalCluster;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The model-based checker: histories generated from seeds, each run against the whole pipeline on one local cluster
 * (Kafka, ZooKeeper and the filer emulator, with one filer or several, in this process), judged by the oracle, and
 * shrunk when they fail.
 */
public final class Checker implements AutoCloseable {

    /**
     * @param ops        operations per history
     * @param faults     faults per history
     * @param shrinkRuns at most this many runs spent shrinking a failing history (0: none)
     * @param instances  instances of each service (restarts pick one)
     * @param faultKinds the kinds of fault a history draws from
     * @param processMain the services' entry point, to run each service instance as a process of its own (a restart
     *                    is then a kill -9; clocks are not skewed); null to run them in this process
     * @param filers      filers in the emulated cluster: S3 writes are spread over them, and the services tail each
     *                    one's meta-log (found at the master); filer faults need more than one
     * @param changes     changes per history ({@link HistoryGenerator#generate(long, int, int, int)}): rules renamed, a
     *                    hold lifted later, a version promoted and demoted again, dead letters replayed while blocked,
     *                    a timer made unreadable; 0 for the histories the seeds made before changes existed
     */
    public record Options(int ops, int faults, int daySeconds, int graceDays, int maxDays, int shrinkRuns,
                          int instances, List<Step.Kind> faultKinds, Class<?> processMain, int filers, int changes) {

        /** Options of a checker whose histories have no changes: each seed makes the history it made before them. */
        public Options(int ops, int faults, int daySeconds, int graceDays, int maxDays, int shrinkRuns, int instances,
                       List<Step.Kind> faultKinds, Class<?> processMain, int filers) {
            this(ops, faults, daySeconds, graceDays, maxDays, shrinkRuns, instances, faultKinds, processMain, filers, 0);
        }

        public Options {
            faultKinds = List.copyOf(faultKinds);
            if (filers < 1) {
                throw new IllegalArgumentException("a cluster has at least one filer, not " + filers);
            }
            if (processMain != null && faultKinds.contains(Step.Kind.CLOCK_SKEW)) {
                throw new IllegalArgumentException("a service's clock is skewed only when the services run in the "
                        + "checker's process");
            }
        }

        /** Every fault but Kafka and ZooKeeper restarts, services in this process. */
        public static Options defaults() {
            return new Options(60, 4, 2, 4, 2, 8, 1, HistoryGenerator.faultKinds(false), null, 1);
        }
    }

    /** What a set of histories found; the coverage counts every run of this checker so far. */
    public record Summary(int histories, long operations, long faults, long actions, List<Finding> findings,
                          List<String> failedServices, int coverageReached, int coveragePossible, Duration took,
                          Duration latestAction) {

        public boolean clean() {
            return findings.isEmpty() && failedServices.isEmpty();
        }
    }

    private final Options options;
    private final Path work;
    private final LocalCluster cluster;
    private final CheckRun runs;
    private final HistoryGenerator generator;
    /** Every combination reached by this checker's runs so far. */
    private final Coverage reached = new Coverage();

    private Checker(Options options, Path work) {
        this.options = options;
        this.work = work;
        // A Kafka or ZooKeeper restarted in this process comes back on the ports recorded in its data directory,
        // where the services look for it.
        this.cluster = LocalCluster.builder().mode(LocalCluster.Mode.IN_PROCESS).dataDir(work.resolve("cluster"))
                .filers(options.filers()).start();
        if (options.filers() > 1) {
            // Filers flush their logs on their own schedules, as upstream's do once a minute: a populator's catch-up
            // after a restart, or a stream's after a filer stops, skips a filer's unflushed events (issue 46).
            cluster.emulator().store().setLogFlushInterval(
                    Duration.ofMillis(HistoryGenerator.filerFlushMillis(options.daySeconds() * 1_000L)));
        }
        this.runs = new CheckRun(cluster, new CheckRun.Settings(options.daySeconds(), options.graceDays(),
                Duration.ofMillis(700), Duration.ofMillis(120), Duration.ofSeconds(options.daySeconds() * 2L),
                options.instances(), options.processMain()),
                work.resolve("replay"));
        this.generator = new HistoryGenerator(options.maxDays(), options.daySeconds() * 1_000L,
                options.faultKinds(), options.filers());
    }

    /** A checker with a local cluster of its own, in a new temporary directory. */
    public static Checker start(Options options) throws java.io.IOException {
        return new Checker(options, Files.createTempDirectory("tidemark-check"));
    }

    /** The checker's directory: the cluster's data, the replay state, and {@code logs/<run>/} of service processes. */
    public Path work() {
        return work;
    }

    /** The history a seed makes, with this checker's options. */
    public History history(long seed) {
        return generator.generate(seed, options.ops(), options.faults(), options.changes());
    }

    /** Runs the histories of the given seeds one after the other; prints a line for each and every finding. */
    public Summary check(List<Long> seeds, PrintWriter out) throws Exception {
        return run(seeds.stream().map(this::history).toList(), out);
    }

    /** Runs the given histories one after the other (a shrunk one, replayed as a regression test). */
    public Summary run(List<History> histories, PrintWriter out) throws Exception {
        long began = System.nanoTime();
        List<Finding> findings = new ArrayList<>();
        List<String> failed = new ArrayList<>();
        long operations = 0;
        long faults = 0;
        long actions = 0;
        Duration latest = Duration.ZERO;
        for (History history : histories) {
            long seed = history.seed();
            CheckRun.Result result = runs.run(history);
            reached.addAll(result.coverage());
            operations += history.operations();
            faults += history.faults();
            actions += result.verdict().actions();
            latest = result.verdict().latestAction().compareTo(latest) > 0 ? result.verdict().latestAction() : latest;
            out.printf(Locale.ROOT, "history seed=%d: %d operations, %d faults, %d refused by S3, %d service failures "
                            + "(%d unexplained), %d lifecycle actions (latest %d ms after due), %d findings, %.1f s%n",
                    seed, history.operations(), history.faults(), result.refused(), result.serviceFailures(),
                    result.failedServices().size(), result.verdict().actions(),
                    result.verdict().latestAction().toMillis(), result.verdict().findings().size(),
                    result.took().toNanos() / 1e9);
            out.printf(Locale.ROOT, "  faults: %s%n", history.steps().stream().filter(Step::fault)
                    .collect(Collectors.groupingBy(Step::kind, java.util.TreeMap::new, Collectors.counting())));
            CheckReport.print(out, result);
            findings.addAll(result.verdict().findings());
            result.failedServices().forEach(s -> failed.add("seed " + seed + ": " + s));
            if (!result.clean() && options.shrinkRuns() > 0) {
                shrink(result, out);
            }
        }
        return new Summary(histories.size(), operations, faults, actions, findings, failed, reached.reached(),
                Coverage.possible(options.filers()), Duration.ofNanos(System.nanoTime() - began), latest);
    }

    /** Re-runs ever smaller parts of a failing history while a finding of the same kind on the same key persists. */
    private void shrink(CheckRun.Result failing, PrintWriter out) {
        Set<String> wanted = failing.verdict().findings().stream().map(Checker::signature)
                .collect(Collectors.toSet());
        out.printf(Locale.ROOT, "  shrinking (at most %d runs)...%n", options.shrinkRuns());
        out.flush();
        Shrinker.Shrunk shrunk = Shrinker.shrink(failing.history().steps(), steps -> {
            try {
                CheckRun.Result result = runs.run(failing.history().withSteps(steps));
                return result.verdict().findings().stream().map(Checker::signature).anyMatch(wanted::contains);
            } catch (Exception e) {
                return false;
            }
        }, options.shrinkRuns());
        out.printf(Locale.ROOT, "  shrunk from %d to %d steps in %d runs%n", failing.history().steps().size(),
                shrunk.steps().size(), shrunk.runs());
        CheckReport.printHistory(out, failing.history().withSteps(shrunk.steps()));
    }

    /** A finding as the same in every run of a history: its kind, and its bucket (as the history names it) and key. */
    static String signature(Finding f) {
        return f.kind() + " " + CheckRun.historyBucket(f.bucket()) + "/" + f.key();
    }

    @Override
    public void close() {
        cluster.close();
    }
}
