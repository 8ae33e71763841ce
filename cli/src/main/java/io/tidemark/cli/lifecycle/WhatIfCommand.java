package io.tidemark.cli.lifecycle;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.grpc.StatusRuntimeException;
import io.tidemark.bucketprocessor.EntryLister;
import io.tidemark.bucketprocessor.WholeWalk;
import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ExitCodes;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.lifecycle.config.LifecycleConfigException;
import io.tidemark.lifecycle.engine.BucketVersioning;
import io.tidemark.lifecycle.engine.RuleReader;
import io.tidemark.lifecycle.engine.RuleSet;
import io.tidemark.messages.BucketEntryConfig;
import io.tidemark.seaweed.client.FilerClient;
import io.tidemark.seaweed.client.FilerClock;
import io.tidemark.seaweed.client.SeaweedCallException;
import io.tidemark.seaweed.pb.FilerProto.Entry;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "what-if", mixinStandardHelpOptions = true,
        description = {"Walks a bucket once, read-only, through the filer's listing (as the walker does, paced), and "
                + "reports what a lifecycle configuration would do: per rule, current versions expired, noncurrent "
                + "versions expired, delete markers removed and multipart uploads aborted, with bytes, due now and "
                + "on each day of the horizon; entries object lock would hold; with --rules, what the change from "
                + "the bucket's current configuration adds and removes.",
            "Exit status: 0 done; 1 the filer failed or a file could not be read; 2 usage; 3 invalid lifecycle "
                + "XML (S3's error code is printed); 4 no such bucket; 5 --fail-if-deletes and something would be "
                + "removed now; 6 --fail-if-change-adds and the given rules act on entries the current ones leave alone, "
                + "or on the same entries sooner."})
public final class WhatIfCommand implements Callable<Integer> {

    /** The lifecycle XML given (or the bucket's own, without --rules) is not a valid configuration. */
    public static final int INVALID_RULES = 3;
    public static final int NO_SUCH_BUCKET = 4;
    /** {@code --fail-if-deletes}: some rule removes something now that no lock holds. */
    public static final int DELETES_NOW = 5;
    /**
     * {@code --fail-if-change-adds}: the given rules act within the horizon on entries the current ones do not, or on
     * the same entries sooner.
     */
    public static final int CHANGE_ADDS = 6;

    private static final int MOST_DAYS = 3650;
    private static final int PAGE_SIZE = 1000;

    @Mixin
    private ConfigOptions options;

    @Spec
    private CommandSpec spec;

    @Option(names = "--bucket", required = true, paramLabel = "BUCKET", description = "The bucket to walk.")
    private String bucket;

    @Option(names = "--rules", paramLabel = "FILE.xml",
            description = "A lifecycle configuration to try instead of the bucket's own, compared with it.")
    private Path rulesFile;

    @Option(names = "--days", defaultValue = "30", paramLabel = "N",
            description = "Lifecycle days to look ahead (lifecycle.day.seconds long; default ${DEFAULT-VALUE}).")
    private int days;

    @Option(names = "--json", description = "Print the report as one JSON document.")
    private boolean json;

    @Option(names = "--entries-per-second", defaultValue = "20000", paramLabel = "N",
            description = "At most this many entries read from the filer per second, 0 for no limit "
                    + "(default ${DEFAULT-VALUE}).")
    private long entriesPerSecond;

    @Option(names = "--samples", defaultValue = "5", paramLabel = "N",
            description = "Entries named per rule and per side of the change (default ${DEFAULT-VALUE}).")
    private int samples;

    @Option(names = "--fail-if-deletes",
            description = "Exit 5 when some rule would remove something now (entries held by object lock aside).")
    private boolean failIfDeletes;

    @Option(names = "--fail-if-change-adds",
            description = "With --rules: exit 6 when the given rules act within the horizon on entries the "
                    + "current ones leave alone, or on entries both act on but sooner.")
    private boolean failIfChangeAdds;

    @Option(names = "--expected-entries", paramLabel = "N",
            description = "The entries the bucket is expected to hold (from an earlier what-if, say), for an ETA "
                    + "in the progress line; without it the line gives the rate only.")
    private Long expectedEntries;

    @Option(names = "--progress-seconds", defaultValue = "5", paramLabel = "S",
            description = "Seconds between progress lines on stderr, 0 for none (default ${DEFAULT-VALUE}).")
    private long progressSeconds;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Optional<String> usage = usageError();
        if (usage.isPresent()) {
            err.println("error: " + usage.get());
            return ExitCodes.USAGE;
        }
        TidemarkConfig config = options.load();
        RuleReader reader = config.ruleReader();
        Optional<RuleSet> given = Optional.empty();
        if (rulesFile != null) {
            try {
                given = Optional.of(reader.read(Files.readAllBytes(rulesFile)));
            } catch (IOException e) {
                return fail(ExitCodes.FAILURE, "FileUnreadable", "cannot read " + rulesFile + ": " + e.getMessage());
            } catch (LifecycleConfigException invalid) {
                return fail(INVALID_RULES, invalid.code().name(), rulesFile + ": " + invalid.describe());
            }
        }
        String address = config.getString(TidemarkConfig.FILER_ADDRESS);
        try (FilerClient filer = FilerClient.connect(address, config.grpcTls(), Duration.ofSeconds(60))) {
            String bucketsDirectory = filer.bucketsDirectory();
            Optional<Entry> bucketEntry = filer.lookup(bucketsDirectory, bucket);
            if (bucketEntry.isEmpty()) {
                return fail(NO_SUCH_BUCKET, "NoSuchBucket", "no bucket " + bucket + " under " + bucketsDirectory
                        + " on the filer at " + address);
            }
            CurrentConfiguration current = CurrentConfiguration.of(bucketEntry.get(), reader);
            if (given.isEmpty() && current.error() != null) {
                return fail(INVALID_RULES, current.state().substring("invalid: ".length()), "bucket " + bucket
                        + ": its lifecycle configuration is invalid, and the pipeline ignores it: " + current.error());
            }
            BucketVersioning versioning;
            try {
                versioning = BucketVersioning.parse(BucketEntryConfig.versioning(bucketEntry.get()));
            } catch (IllegalArgumentException unknown) {
                return fail(ExitCodes.FAILURE, "InvalidBucketVersioning", "bucket " + bucket + ": "
                        + unknown.getMessage());
            }
            Horizon horizon = new Horizon(FilerClock.of(filer, Clock.systemUTC(), FilerClock.DEFAULT_MAX_AGE)
                    .nowBlocking(), config.calendar().dayLength(), days);
            Optional<RuleSet> analysed = given.or(current::valid);
            WhatIfReport report = analysed.isEmpty()
                    ? nothingToDo(versioning, horizon)
                    : walk(filer, bucketsDirectory, versioning, horizon, analysed.get(),
                            given.isPresent() ? Optional.of(current) : Optional.empty(), err);
            print(report, out);
            return exitCode(report);
        } catch (SeaweedCallException | StatusRuntimeException e) {
            // The filer failing or unreachable: nothing was reported, so nothing half-done shows.
            return fail(ExitCodes.FAILURE, "FilerError", "the filer at " + address + " failed: " + e.getMessage());
        }
    }

    private Optional<String> usageError() {
        if (days < 0 || days > MOST_DAYS) {
            return Optional.of("--days must be between 0 and " + MOST_DAYS + ", not " + days);
        }
        if (entriesPerSecond < 0) {
            return Optional.of("--entries-per-second must be 0 (no limit) or more, not " + entriesPerSecond);
        }
        if (samples < 0 || progressSeconds < 0 || (expectedEntries != null && expectedEntries <= 0)) {
            return Optional.of("--samples, --progress-seconds and --expected-entries cannot be negative");
        }
        if (failIfChangeAdds && rulesFile == null) {
            return Optional.of("--fail-if-change-adds compares with --rules FILE.xml, which is missing");
        }
        return Optional.empty();
    }

    private WhatIfReport walk(FilerClient filer, String bucketsDirectory, BucketVersioning versioning, Horizon horizon,
                              RuleSet analysed, Optional<CurrentConfiguration> current, PrintWriter err) {
        WhatIfAnalysis analysis = new WhatIfAnalysis(analysed, versioning, horizon, samples, current);
        EntryLister lister = ListingPace.of(EntryLister.of(filer), entriesPerSecond);
        ProgressLine progress = new ProgressLine(err, bucket,
                expectedEntries == null ? OptionalLong.empty() : OptionalLong.of(expectedEntries),
                progressSeconds == 0 ? Long.MAX_VALUE : progressSeconds * 1000, System::nanoTime);
        long start = System.nanoTime();
        WholeWalk.Progress walked = WholeWalk.visit(lister, bucketsDirectory, bucket, versioning, PAGE_SIZE,
                analysis, progress);
        return analysis.report(bucket, rulesSource(), walked, Duration.ofNanos(System.nanoTime() - start));
    }

    /** The bucket has no lifecycle configuration and none is given: no walk, nothing would be done. */
    private WhatIfReport nothingToDo(BucketVersioning versioning, Horizon horizon) {
        return new WhatIfReport(bucket, versioning.name(), "none", horizon.now(), horizon.day().toSeconds(), days,
                horizon.end(), List.of(), null, new WhatIfReport.Walk(0, 0, 0, 0, 0, 0, 0, 0));
    }

    private String rulesSource() {
        return rulesFile == null ? "current" : rulesFile.toString();
    }

    private int exitCode(WhatIfReport report) {
        if (failIfDeletes && report.deletesNow()) {
            return DELETES_NOW;
        }
        if (failIfChangeAdds && report.changeAdds()) {
            return CHANGE_ADDS;
        }
        return ExitCodes.OK;
    }

    private void print(WhatIfReport report, PrintWriter out) {
        if (json) {
            out.println(toJson(report));
            out.flush();
        } else {
            if (report.rules().isEmpty()) {
                out.println("bucket " + bucket + " has no lifecycle configuration: nothing would be done "
                        + "(give one with --rules FILE.xml)");
                out.flush();
                return;
            }
            WhatIfTable.print(report, out);
        }
    }

    /**
     * An error as one line on stderr, or as {@code {"error": {code, message, exitCode}}} on stdout with --json. The
     * code is S3's for bad lifecycle XML and a missing bucket (NoSuchBucket), else FilerError or FileUnreadable.
     */
    private int fail(int exitCode, String code, String message) {
        if (json) {
            PrintWriter out = spec.commandLine().getOut();
            Map<String, Object> error = new LinkedHashMap<>();
            error.put("code", code);
            error.put("message", message);
            error.put("exitCode", exitCode);
            out.println(toJson(Map.of("error", error)));
            out.flush();
        } else {
            PrintWriter err = spec.commandLine().getErr();
            err.println(code + ": " + message);
            err.flush();
        }
        return exitCode;
    }

    private static String toJson(Object document) {
        try {
            return new ObjectMapper().registerModule(new JavaTimeModule())
                    .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).writeValueAsString(document);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the what-if report does not serialise", e);
        }
    }
}
