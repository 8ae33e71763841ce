package io.tidemark.devtools.check;

import io.tidemark.checker.Checker;
import io.tidemark.checker.model.DirectedHistories;
import io.tidemark.checker.model.History;
import io.tidemark.checker.model.HistoryGenerator;
import io.tidemark.checker.model.Step;
import io.tidemark.cli.ServicesMain;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Runs the model-based lifecycle checker on this machine: random S3 histories generated from "
                + "seeds (puts, overwrites, deletes, version deletes, tags on current and noncurrent versions, legal "
                + "holds, retention, versioning toggled, multipart uploads, lifecycle rules added, edited and "
                + "removed), faults woven in (a service restarted, or killed with --processes; a service's clock set "
                + "ahead or behind; the filer and gateway UNAVAILABLE or slow, the gateway answering RETRY_LATER, "
                + "BLOCKED then a dead-letter replay, or UNKNOWN; a dlq replay; with --cluster-faults, Kafka and "
                + "ZooKeeper restarts; with --filers, a filer stopped or its clock set off), the whole pipeline on a "
                + "local cluster, and an oracle — the rules engine alone — that reports wrongful deletes and lost "
                + "expirations, shrinking a failing history.",
            "Histories use seeds --seed, --seed+1, ... until --minutes have passed (one history when 0); "
                    + "--history runs the directed regression histories instead.",
            "Exit 0 when nothing was found; 1 otherwise. Takes minutes; a slice runs in the test suite."})
public final class CheckCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Option(names = "--seed", description = "The first seed (default: the current time); printed, to replay a run.")
    private Long seed;

    @Option(names = "--ops", defaultValue = "60", description = "Operations per history (default ${DEFAULT-VALUE}).")
    private int ops;

    @Option(names = "--faults", defaultValue = "4", description = "Faults per history (default ${DEFAULT-VALUE}).")
    private int faults;

    @Option(names = "--changes", defaultValue = "3",
            description = "Changes per history (default ${DEFAULT-VALUE}), drawn apart from the operations and faults: "
                    + "rules re-PUT under new IDs and reordered, a legal hold set and lifted later, a current version "
                    + "promoted back and demoted again, a BLOCKED key's dead letters replayed while it still blocks, an "
                    + "armed timer made unreadable, a hold lifted while the filer's listings arrive late, a walk failing "
                    + "on the filer while ZooKeeper refuses its walk state. 0 makes the histories the seeds made before changes existed.")
    private int changes;

    @Option(names = "--minutes", defaultValue = "0",
            description = "Run histories until this many minutes have passed (default ${DEFAULT-VALUE}: one).")
    private int minutes;

    @Option(names = "--day-seconds", defaultValue = "2",
            description = "Length of a lifecycle day (default ${DEFAULT-VALUE}).")
    private int daySeconds;

    @Option(names = "--grace-days", defaultValue = "4",
            description = "How long, in lifecycle days, the pipeline may take to act on what is due "
                    + "(default ${DEFAULT-VALUE}).")
    private int graceDays;

    @Option(names = "--shrink-runs", defaultValue = "8",
            description = "Runs spent shrinking a failing history; 0 does not shrink (default ${DEFAULT-VALUE}).")
    private int shrinkRuns;

    @Option(names = "--instances", defaultValue = "1",
            description = "Instances of each service: populators contend for leadership, the others share their "
                    + "groups' partitions; a restart fault picks one (default ${DEFAULT-VALUE}).")
    private int instances;

    @Option(names = "--cluster-faults",
            description = "Also restart Kafka and ZooKeeper (in this process) among the faults; a service failing "
                    + "while they are away is started again, as a supervisor would, and is not a finding.")
    private boolean clusterFaults;

    @Option(names = "--fault-kinds", split = ",", paramLabel = "KIND",
            description = "Draw faults from these kinds only, to aim a run at one defence: RESTART_SERVICE, "
                    + "FILER_UNAVAILABLE, FILER_SLOW, GATEWAY_RETRY_LATER, GATEWAY_BLOCKED, GATEWAY_UNKNOWN, DLQ_REPLAY, "
                    + "CLOCK_SKEW, KAFKA_RESTART, ZOOKEEPER_RESTART, FILER_STOP, FILER_CLOCK_SKEW, FILER_STREAM_LATE, "
                    + "CORRUPT_TIMER, "
                    + "LISTINGS_LATE, LISTINGS_FAIL, WALK_STATES_REFUSED, CONDUCTOR_PAUSED (default: all but the last "
                    + "five, which --changes draws, CONDUCTOR_PAUSED only when named; Kafka and ZooKeeper restarts with --cluster-faults "
                    + "only, CLOCK_SKEW without --processes only, filer faults with --filers above 1 only).")
    private List<Step.Kind> faultKinds;

    @Option(names = "--filers", defaultValue = "1",
            description = "Filers in the emulated cluster (default ${DEFAULT-VALUE}): S3 writes are spread over them "
                    + "and the services tail each one's meta-log, found at the master; with more than one, faults also "
                    + "stop a filer for a while (FILER_STOP), set a filer's clock up to 399 ms off "
                    + "(FILER_CLOCK_SKEW) and deliver a filer's own stream later than the populator's hold "
                    + "(FILER_STREAM_LATE).")
    private int filers;

    @Option(names = "--processes",
            description = "Run each service instance as a process of its own, as an operator does: a restart fault "
                    + "is then a kill -9 (SIGKILL). Clocks are not skewed in this mode.")
    private boolean processes;

    @Option(names = "--history", split = ",", paramLabel = "NAME",
            description = "Run these directed histories (the checker's regression cases, written by hand) instead of "
                    + "generated ones; \"all\" runs every one. Known: ${COMPLETION-CANDIDATES}.",
            completionCandidates = DirectedNames.class)
    private List<String> directed;

    /** The directed histories' names, for the help text. */
    static final class DirectedNames extends ArrayList<String> {
        DirectedNames() {
            super(DirectedHistories.names());
            add("all");
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (filers < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--filers is at least 1, not " + filers);
        }
        List<Step.Kind> kinds = faultKinds != null ? faultKinds : HistoryGenerator.faultKinds(clusterFaults, filers)
                .stream()
                .filter(kind -> !processes || kind != Step.Kind.CLOCK_SKEW).toList();
        if (kinds.stream().anyMatch(kind -> !kind.fault())) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--fault-kinds takes faults only: " + kinds);
        }
        if (filers == 1 && kinds.stream().anyMatch(Step.Kind::filerFault)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "filer faults need several filers: "
                    + "--filers 2 or more");
        }
        if (processes && kinds.contains(Step.Kind.CLOCK_SKEW)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "CLOCK_SKEW needs the services in the "
                    + "checker's process (their clocks are skewed there): drop it or --processes");
        }
        if (processes) {
            // A check stopped with Ctrl-C leaves no service process running.
            Runtime.getRuntime().addShutdownHook(new Thread(() -> ProcessHandle.current().descendants()
                    .forEach(ProcessHandle::destroyForcibly), "check-children"));
        }
        long first = seed == null ? System.currentTimeMillis() : seed;
        out.printf(Locale.ROOT, "check: first seed %d, %d operations, %d faults and %d changes per history, day %d s, "
                + "grace %d days (replay with --seed %d)%n", first, ops, faults, changes, daySeconds, graceDays, first);
        out.flush();
        long deadline = System.nanoTime() + minutes * 60_000_000_000L;
        List<Checker.Summary> summaries = new ArrayList<>();
        out.printf(Locale.ROOT, "check: faults drawn from %s; services %s%n", kinds,
                processes ? "as processes (restarts are kill -9)" : "in this process");
        if (filers > 1) {
            out.printf(Locale.ROOT, "check: %d filers: S3 writes spread over them, each one's meta-log tailed%n",
                    filers);
        }
        try (Checker checker = Checker.start(new Checker.Options(ops, faults, daySeconds, graceDays, 2, shrinkRuns,
                instances, kinds, processes ? ServicesMain.class : null, filers, changes))) {
            out.printf(Locale.ROOT, "check: working in %s%n", checker.work());
            long next = first;
            do {
                summaries.add(directed != null ? checker.run(directedHistories(), out)
                        : checker.check(List.of(next++), out));
            } while (System.nanoTime() < deadline);
        }
        int histories = summaries.size();
        long operations = summaries.stream().mapToLong(Checker.Summary::operations).sum();
        long faultCount = summaries.stream().mapToLong(Checker.Summary::faults).sum();
        long actions = summaries.stream().mapToLong(Checker.Summary::actions).sum();
        long findings = summaries.stream().mapToLong(s -> s.findings().size() + s.failedServices().size()).sum();
        double seconds = summaries.stream().mapToDouble(s -> s.took().toNanos() / 1e9).sum();
        int reached = summaries.get(summaries.size() - 1).coverageReached();
        long latestMillis = summaries.stream().mapToLong(s -> s.latestAction().toMillis()).max().orElse(0);
        out.printf(Locale.ROOT, "check: %d histories (%.1f per hour), %d operations (%.2f/s), %d faults, %d lifecycle "
                        + "actions (the latest %d ms after due), %d findings; operation × rule kind × fault "
                        + "combinations reached: %d of %d: %s%n", histories, histories * 3600 / Math.max(1, seconds),
                operations, operations / Math.max(0.001, seconds), faultCount, actions, latestMillis, findings, reached,
                summaries.get(0).coveragePossible(), findings == 0 ? "PASSED" : "FAILED");
        out.flush();
        return findings == 0 ? 0 : 1;
    }

    private List<History> directedHistories() {
        long dayMillis = daySeconds * 1_000L;
        if (directed.contains("all")) {
            List<History> all = new ArrayList<>(DirectedHistories.all(dayMillis).values());
            if (filers > 1) {
                all.addAll(DirectedHistories.severalFilers(dayMillis).values());
            }
            return all;
        }
        List<String> needFilers = directed.stream().filter(DirectedHistories::needsSeveralFilers).toList();
        if (filers < 2 && !needFilers.isEmpty()) {
            throw new CommandLine.ParameterException(spec.commandLine(), needFilers + " need several filers: "
                    + "--filers 2 or more");
        }
        try {
            return directed.stream().map(name -> DirectedHistories.named(name, dayMillis)).toList();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }
}
