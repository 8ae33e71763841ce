package io.tidemark.cli.conductor;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.ExitCodes;
import io.tidemark.cli.ServiceLauncher;
import io.tidemark.conductor.Conductor;
import io.tidemark.conductor.ConductorService;
import io.tidemark.conductor.ConductorSettings;
import io.tidemark.conductor.PassOutcome;
import io.tidemark.conductor.PassReport;
import io.tidemark.config.TidemarkConfig;
import java.time.Clock;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "conductor", mixinStandardHelpOptions = true,
        description = {"Seeds walker passes: takes the walker lock in ZooKeeper, skips the pass while the "
                + "bucket-processor or object-processor group's backlog is above conductor.max.backlog, and "
                + "publishes a steady bucket task for every lifecycle bucket whose rules need walks and whose last "
                + "walk is not under way.",
            "--once runs one pass and exits (a Kubernetes CronJob): 0 the pass ran, 3 skipped because another "
                + "conductor holds the lock, 4 skipped because of the backlog, 1 failed.",
            "--schedule runs passes on a cron expression (five fields, UTC) as a service with /metrics, /healthz "
                + "and /readyz on management.port."})
public final class ConductorCommand implements Callable<Integer> {

    private static final Logger log = LoggerFactory.getLogger(ConductorCommand.class);

    @Mixin
    private ConfigOptions options;

    @Spec
    private CommandSpec spec;

    @ArgGroup(multiplicity = "1")
    private Mode mode;

    static final class Mode {
        @Option(names = "--once", required = true, description = "Run one walker pass and exit.")
        boolean once;

        @Option(names = "--schedule", required = true, arity = "0..1", fallbackValue = "",
                paramLabel = "<cron>", description = "Run passes on this cron expression (default: conductor.schedule).")
        String schedule;
    }

    @Option(names = "--exit-zero-on-skip",
            description = "With --once, exit 0 when the pass is skipped (lock held, backlog, cluster paused), for schedulers that "
                    + "count any other status as a failure; a paused cluster counts as a skip.")
    private boolean exitZeroOnSkip;

    @Override
    public Integer call() throws InterruptedException {
        if (mode.schedule != null) {
            return ServiceLauncher.run(options, "conductor", (config, registry) -> new ConductorService(config,
                    Clock.systemUTC(), registry, mode.schedule.isEmpty()
                            ? config.getString(ConductorSettings.SCHEDULE) : mode.schedule));
        }
        TidemarkConfig config = options.load();
        log.info("conductor settings: {}", config.effective());
        PassReport report;
        try (Conductor conductor = Conductor.open(config, Clock.systemUTC(), new SimpleMeterRegistry())) {
            report = conductor.runPass();
        } catch (RuntimeException e) {
            spec.commandLine().getErr().println("conductor: " + e.getMessage());
            return ExitCodes.FAILURE;
        }
        spec.commandLine().getOut().println(report.summary());
        boolean skipped = report.outcome() == PassOutcome.SKIPPED_LOCK
                || report.outcome() == PassOutcome.SKIPPED_BACKLOG || report.outcome() == PassOutcome.SKIPPED_PAUSED;
        return skipped && exitZeroOnSkip ? ExitCodes.OK : report.outcome().exitCode();
    }
}
