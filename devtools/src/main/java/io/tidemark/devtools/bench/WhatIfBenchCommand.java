package io.tidemark.devtools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tidemark.cli.lifecycle.LifecycleCommand;
import io.tidemark.emulator.EmulatorSettings;
import io.tidemark.emulator.FilerEmulator;
import io.tidemark.emulator.MutableClock;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.GrpcTls;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measures `tidemark lifecycle what-if` (unpaced, with a --rules change so both configurations "
                + "are evaluated) on an in-process emulator bucket filled as the bucket-processor bench fills it, "
                + "against a raw paged ListEntries walk of the same bucket.")
public final class WhatIfBenchCommand implements Callable<Integer> {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    @Spec
    private CommandSpec spec;

    @Option(names = "--objects", defaultValue = "1000000", description = "Objects in the bucket (default ${DEFAULT-VALUE}).")
    private int objects;

    @Option(names = "--per-directory", defaultValue = "1000",
            description = "Objects per key prefix directory (default ${DEFAULT-VALUE}).")
    private int perDirectory;

    @Option(names = "--rounds", defaultValue = "2", description = "Measured rounds after a warm-up (default ${DEFAULT-VALUE}).")
    private int rounds;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        MutableClock clock = new MutableClock(T0);
        try (FilerEmulator emulator = new FilerEmulator(EmulatorSettings.ephemeral(), clock).start()) {
            var s3 = emulator.s3();
            s3.createBucket("bench", false);
            // The current rules: one prefix in ten due by date; the given ones add a Days rule over everything.
            s3.putLifecycle("bench", "<LifecycleConfiguration><Rule><ID>date</ID><Filter><Prefix>d-0</Prefix></Filter>"
                    + "<Status>Enabled</Status><Expiration><Date>2026-01-02T00:00:00Z</Date></Expiration></Rule>"
                    + "</LifecycleConfiguration>");
            Path given = Files.createTempFile("whatif-bench", ".xml");
            Files.writeString(given, "<LifecycleConfiguration><Rule><ID>date</ID><Filter><Prefix>d-0</Prefix></Filter>"
                    + "<Status>Enabled</Status><Expiration><Date>2026-01-02T00:00:00Z</Date></Expiration></Rule>"
                    + "<Rule><ID>days</ID><Filter><Prefix></Prefix></Filter><Status>Enabled</Status>"
                    + "<Expiration><Days>20</Days></Expiration></Rule></LifecycleConfiguration>");
            long fillStart = System.nanoTime();
            for (int i = 0; i < objects; i++) {
                String key = String.format(Locale.ROOT, "d-%d%05d/object-%07d", (i / perDirectory) % 10,
                        i / perDirectory, i);
                s3.putObject("bench", key, 100, Map.of(), Map.of());
            }
            clock.advance(Duration.ofDays(2));
            out.printf(Locale.ROOT, "what-if benchmark: %d objects, %d per directory, filled in %.0f s; a warm-up "
                    + "and %d rounds%n", objects, perDirectory, (System.nanoTime() - fillStart) / 1e9, rounds);
            out.flush();
            try (FilerClient filer = FilerClient.connect(emulator.filerAddress(), GrpcTls.PLAINTEXT,
                    Duration.ofSeconds(60))) {
                for (int round = 0; round <= rounds; round++) {
                    long t0 = System.nanoTime();
                    BucketProcessorBenchCommand.RawTotals raw = BucketProcessorBenchCommand.rawWalk(filer,
                            "/buckets/bench", 1024);
                    long t1 = System.nanoTime();
                    JsonNode report = whatIf(emulator.filerAddress(), given);
                    long t2 = System.nanoTime();
                    double rawRate = raw.entries() / ((t1 - t0) / 1e9);
                    double seconds = (t2 - t1) / 1e9;
                    long entries = report.at("/walk/entries").asLong();
                    out.printf(Locale.ROOT, "%s: raw %d entries, %.0f entries/s | what-if %d entries in %.1f s "
                            + "(command, connection included), %.0f entries/s (walk alone %.0f) | ratio %.2f | "
                            + "change adds %d%n", round == 0 ? "warm-up" : "round " + round, raw.entries(), rawRate,
                            entries, seconds, entries / seconds, report.at("/walk/entriesPerSecond").asDouble(),
                            entries / seconds / rawRate, report.at("/change/adds/entries/count").asLong());
                    out.flush();
                }
            }
        }
        return 0;
    }

    private static JsonNode whatIf(String filerAddress, Path given) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new CommandLine(new LifecycleCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("what-if", "--bucket", "bench", "--rules", given.toString(), "--json",
                        "--entries-per-second", "0", "--progress-seconds", "0", "--set", "filer.address=" + filerAddress);
        if (code != 0) {
            throw new IllegalStateException("what-if exited " + code + ": " + out + err);
        }
        try {
            return new ObjectMapper().readTree(out.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
