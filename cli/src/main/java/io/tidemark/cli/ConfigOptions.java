package io.tidemark.cli;

import io.tidemark.config.ConfigLoader;
import io.tidemark.config.TidemarkConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import picocli.CommandLine.Option;

/** The settings options every command that talks to the cluster shares: a file, then the environment, then flags. */
public final class ConfigOptions {

    @Option(names = {"-c", "--config"}, paramLabel = "FILE", description = "A properties file of settings.")
    Path file;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "A setting; overrides the file and the environment. Repeatable.")
    List<String> settings = new ArrayList<>();

    public <C> C load(ConfigDef definition, Function<Map<String, ?>, C> constructor) {
        return ConfigLoader.load(definition, constructor, file, System.getenv(), ConfigLoader.flags(settings));
    }

    public TidemarkConfig load() {
        return load(TidemarkConfig.definition(), TidemarkConfig::new);
    }
}
