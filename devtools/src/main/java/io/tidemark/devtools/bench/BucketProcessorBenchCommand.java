package io.tidemark.devtools.bench;

import io.tidemark.bucketprocessor.WholeWalk;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.lifecycle.config.ValidationMode;
import io.tidemark.lifecycle.engine.DuePolicy;
import io.tidemark.lifecycle.engine.LifecycleCalendar;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.messages.BucketTask;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures walker entries/s (paging, evaluation, task building) against a raw paged ListEntries "
                + "walk of the same bucket in the same run, and ListEntries calls and entries listed per entry, on "
                + "an in-process emulator. Kafka is left out: it is the same for both.")
public final class BucketProcessorBenchCommand implements Callable<Integer> {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Spec
    private CommandSpec spec;

    @Option(names = "--objects", defaultValue = "200000", description = "Objects in the bucket (default ${DEFAULT-VALUE}).")
    private int objects;

    @Option(names = "--per-directory", defaultValue = "1000",
            description = "Objects per key prefix directory (default ${DEFAULT-VALUE}).")
    private int perDirectory;

    @Option(names = "--versioned", description = "Use a versioned bucket with two versions per key.")
    private boolean versioned;

    @Option(names = "--page-size", defaultValue = "1000", description = "Walker page size (default ${DEFAULT-VALUE}).")
    private int pageSize;

    @Option(names = "--rounds", defaultValue = "3", description = "Measured rounds after a warm-up (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        MutableClock clock = new MutableClock(T0);
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), clock).start()) {
            var s3 = emulator.s3();
            s3.createBucket("bench", false);
            if (versioned) {
                s3.setVersioning("bench", io.tidemark.lifecycle.engine.BucketVersioning.ENABLED);
            }
            // Every tenth key's prefix is due by date, so tasks are built too, not only evaluated.
            s3.putLifecycle("bench", "<LifecycleConfiguration><Rule><ID>date</ID><Filter><Prefix>d-0</Prefix></Filter>"
                    + "<Status>Enabled</Status><Expiration><Date>2026-01-02T00:00:00Z</Date></Expiration></Rule>"
                    + "</LifecycleConfiguration>");
            for (int i = 0; i < objects; i++) {
                String key = String.format(Locale.ROOT, "d-%d%05d/object-%07d", (i / perDirectory) % 10,
                        i / perDirectory, i);
                s3.putObject("bench", key, 100, Map.of(), Map.of());
                if (versioned) {
                    s3.putObject("bench", key, 100, Map.of(), Map.of());
                }
            }
            clock.advance(Duration.ofDays(2));
            out.printf(Locale.ROOT, "bucket-processor benchmark: %d objects%s, %d per directory, page size %d, "
                    + "a warm-up and %d rounds%n", objects, versioned ? " (two versions each)" : "", perDirectory,
                    pageSize, rounds);
            try (FilerClient filer = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT,
                    Duration.ofSeconds(60))) {
                RuleReader rules = new RuleReader(ValidationMode.AWS,
                        LifecycleCalendar.of(DuePolicy.AWS, Duration.ofDays(1)));
                java.util.List<Double> ratios = new java.util.ArrayList<>();
                for (int round = 0; round <= rounds; round++) {
                    long t0 = System.nanoTime();
                    RawTotals raw = rawWalk(filer, "/buckets/bench", 1024);
                    long t1 = System.nanoTime();
                    WholeWalk.Totals walk = WholeWalk.run(filer, "/buckets", "bench", BucketTask.Mode.steady, 4,
                            pageSize, rules, clock);
                    long t2 = System.nanoTime();
                    double rawRate = raw.entries / ((t1 - t0) / 1e9);
                    double walkRate = walk.handled() / ((t2 - t1) / 1e9);
                    if (round == 0) {
                        out.printf(Locale.ROOT, "warm-up: raw %.0f entries/s, walker %.0f entries/s%n", rawRate,
                                walkRate);
                        continue;
                    }
                    double ratio = walkRate / rawRate;
                    ratios.add(ratio);
                    out.printf(Locale.ROOT, "round %d: raw %d entries in %d calls, %.0f entries/s | walker %d entries "
                            + "in %d pages, %d calls (+%d lookups), %d listed (%d again), %d tasks, %.0f entries/s | "
                            + "ratio %.2f | ListEntries calls per entry %.4f (raw %.4f), entries listed per entry "
                            + "%.4f%n", round, raw.entries, raw.calls, rawRate, walk.handled(), walk.pages(),
                            walk.listCalls(), walk.lookupCalls(), walk.listed(), walk.relisted(), walk.tasks(),
                            walkRate, ratio, (double) walk.listCalls() / walk.handled(),
                            (double) raw.calls / raw.entries, (double) walk.listed() / walk.handled());
                }
                ratios.sort(null);
                out.printf(Locale.ROOT, "ratio walker/raw over %d rounds: min %.2f, median %.2f (target 0.7)%n",
                        ratios.size(), ratios.get(0), ratios.get(ratios.size() / 2));
            }
        }
        return 0;
    }

    record RawTotals(long entries, long calls) {
    }

    /**
     * Lists every entry of the bucket depth first with plain pages, doing nothing with them: the floor (the what-if
     * bench measures against it too).
     */
    static RawTotals rawWalk(FilerClient filer, String root, int limit) {
        long entries = 0;
        long calls = 0;
        Deque<String> directories = new ArrayDeque<>(List.of(root));
        while (!directories.isEmpty()) {
            String dir = directories.pop();
            String after = "";
            while (true) {
                List<Entry> page = filer.listPage(dir, "", after, false, limit);
                calls++;
                entries += page.size();
                for (Entry e : page) {
                    if (e.getIsDirectory()) {
                        directories.push(dir + "/" + e.getName());
                    }
                }
                if (page.size() < limit) {
                    break;
                }
                after = page.get(page.size() - 1).getName();
            }
        }
        return new RawTotals(entries, calls);
    }
}
