package io.tidemark.cli.lifecycle;

import io.tidemark.cli.ConfigOptions;
import io.tidemark.cli.control.ControlSession;
import io.tidemark.config.TidemarkConfig;
import io.tidemark.zookeeper.LifecycleSettings;
import io.tidemark.zookeeper.ZooKeeperPaths;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "settings", mixinStandardHelpOptions = true,
        description = {"Shows the lifecycle settings every service of the cluster shares (lifecycle.day.seconds, "
                + "lifecycle.due.policy, lifecycle.validation.mode, lifecycle.test.mode), as the first service to "
                + "start recorded them in ZooKeeper. A service started with other values refuses to start.",
            "--reset removes the record, to change them on purpose: stop every service, reset, start them all with "
                + "the new values; the first to start records them."})
public final class SettingsCommand implements Callable<Integer> {

    @Mixin
    private ConfigOptions options;

    @Spec
    private CommandSpec spec;

    @Option(names = "--reset", description = "Remove the recorded settings (stop every service first).")
    private boolean reset;

    @Override
    public Integer call() throws Exception {
        TidemarkConfig config = options.load();
        String where = config.getString(TidemarkConfig.ZOOKEEPER_CHROOT) + ZooKeeperPaths.LIFECYCLE_SETTINGS;
        return ControlSession.run(spec, config, "lifecycle settings", (session, out) -> {
            LifecycleSettings settings = session.lifecycleSettings();
            if (reset) {
                Optional<LifecycleSettings.Recorded> removed = settings.reset();
                out.println(removed.map(r -> "removed the lifecycle settings " + r.provenance() + ": " + r.values()
                        + "; the next service to start records its own").orElse("no lifecycle settings were "
                        + "recorded at " + where));
            } else {
                out.println(settings.read().map(r -> (r.testMode() ? "TEST MODE (not for real data): " : "")
                        + r.values() + " (" + r.provenance() + ")").orElse("none recorded at " + where
                        + ": the first service to start records its own"));
            }
        });
    }
}
