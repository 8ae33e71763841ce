package io.tidemark.cli.audit;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ExitCodes;
import io.tidemark.cli.InstantArgument;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.topics.TopicRegistry;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "audit", mixinStandardHelpOptions = true,
        description = {"Shows what lifecycle did to a bucket or one key, from lifecycle-events: each attempt's time, "
                + "how late it was against the task's due instant, outcome, kind, attempt number, rule, key, version "
                + "and reason, oldest first; then the totals by outcome and what was read.",
            "Reads only the window's stretch of each partition (found by timestamp), and with --key only the key's "
                + "shard partition. Progress goes to stderr on long scans.",
            "Exit status: 0 when the scan ran (whatever it found), 1 when Kafka does not answer or the topic is "
                + "missing, 2 for a usage error."})
public final class AuditCommand implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private ConfigOptions options;

    @Option(names = "--bucket", paramLabel = "B", required = true, description = "The bucket.")
    private String bucket;

    @Option(names = "--key", paramLabel = "K",
            description = "Only this S3 key (all its versions, and uploads to it); reads one partition.")
    private String key;

    @Option(names = "--since", paramLabel = "T", defaultValue = "24h",
            description = "Events written at or after T: an instant (2026-11-01T00:00:00Z) or an age (7d, 12h, 30m). "
                    + "Default ${DEFAULT-VALUE}.")
    private String since;

    @Option(names = "--until", paramLabel = "T",
            description = "Events written before T (an instant or an age); default: up to the end of the topic as "
                    + "the scan starts.")
    private String until;

    @Option(names = "--outcome", paramLabel = "O", split = ",",
            description = "Only these outcomes (DONE, PARKED, DRY_RUN…; NOOP_* for a prefix). Repeatable or "
                    + "comma-separated.")
    private List<String> outcomes = new ArrayList<>();

    @Option(names = {"--later-than", "--late-than"}, paramLabel = "D",
            description = "Only attempts answered more than D after their task's due instant (90s, 5m, 2h, 1d): "
                    + "the late ones. Events written before they carried a due instant never match.")
    private String laterThan;

    @Option(names = "--limit", paramLabel = "N", defaultValue = "100",
            description = "Show at most the latest N events (default ${DEFAULT-VALUE}); the totals count all.")
    private int limit;

    @Option(names = "--json", description = "Print one JSON document: the query, the events, the totals, the scan.")
    private boolean json;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10",
            description = "Give up when Kafka does not answer for this long (default ${DEFAULT-VALUE}).")
    private long timeoutSeconds;

    @Override
    public Integer call() throws Exception {
        AuditQuery query = query(Clock.systemUTC());
        TidemarkConfig config = options.load();
        PrintWriter err = spec.commandLine().getErr();
        AuditScan scan = new AuditScan(config.consumerProperties(), TopicRegistry.from(config).lifecycleEvents(),
                Duration.ofSeconds(timeoutSeconds), p -> {
                    err.println(p.line());
                    err.flush();
                });
        AuditResult result;
        try {
            result = scan.scan(query);
        } catch (AuditScanException e) {
            err.println("error: " + e.getMessage());
            err.flush();
            return ExitCodes.FAILURE;
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            AuditReport.json(result, out);
        } else {
            AuditReport.human(result, out);
        }
        out.flush();
        return ExitCodes.OK;
    }

    private AuditQuery query(Clock clock) {
        try {
            // One reading of the clock for both ends, so that "--since 2h --until 1h" is exactly an hour.
            Clock now = Clock.fixed(clock.instant(), clock.getZone());
            Instant from = InstantArgument.parse(since, now);
            Instant to = until == null ? null : InstantArgument.parse(until, now);
            return new AuditQuery(bucket, key, from, to, outcomes, limit,
                    laterThan == null ? null : InstantArgument.age(laterThan));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
    }
}
