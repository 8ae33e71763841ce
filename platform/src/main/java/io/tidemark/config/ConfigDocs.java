package io.tidemark.config;

import java.util.List;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.types.Password;

/** Writes the configuration reference in Markdown from a {@link ConfigDef}, so docs and code cannot drift. */
public final class ConfigDocs {

    private ConfigDocs() {
    }

    public static String markdown(String title, ConfigDef definition) {
        StringBuilder out = new StringBuilder("# ").append(title).append("\n\n")
                .append("Generated from the code by `./tidemark config docs`; do not edit by hand.\n\n")
                .append("Settings are read from a properties file (`--config FILE`), then from environment variables, ")
                .append("then from `--set key=value` flags, each layer overriding the one before. Settings under ")
                .append("`kafka.`, `kafka.producer.`, `kafka.consumer.`, `kafka.streams.` and `kafka.admin.` that are ")
                .append("not listed here pass straight to the Kafka clients; as environment variables they follow ")
                .append("Kafka's image convention (`TIDEMARK_KAFKA_PRODUCER_LINGER_MS` is `kafka.producer.linger.ms`; ")
                .append("`__` is an underscore, `___` a dash). Any other key, or `TIDEMARK_` variable, that names no ")
                .append("setting below is refused at start with the nearest one (`did you mean ...?`); see ")
                .append("[operations.md](operations.md#safe-defaults) for what else is refused.\n\n")
                .append("| setting | environment variable | type | default | valid values | importance | description |\n")
                .append("|---|---|---|---|---|---|---|\n");
        List<ConfigDef.ConfigKey> keys = definition.configKeys().values().stream()
                .sorted((a, b) -> a.name.compareTo(b.name)).toList();
        for (ConfigDef.ConfigKey key : keys) {
            out.append("| `").append(key.name).append("` | `").append(TidemarkConfig.environmentVariable(key.name))
                    .append("` | ").append(key.type.name().toLowerCase()).append(" | ").append(defaultValue(key))
                    .append(" | ").append(key.validator == null ? "" : escape(key.validator.toString()))
                    .append(" | ").append(key.importance.name().toLowerCase()).append(" | ")
                    .append(escape(key.documentation)).append(" |\n");
        }
        return out.toString();
    }

    private static String defaultValue(ConfigDef.ConfigKey key) {
        if (!key.hasDefault()) {
            return "(required)";
        }
        if (key.defaultValue == null) {
            return "(none)";
        }
        if (key.defaultValue instanceof Password) {
            return "(hidden)";
        }
        Object value = key.defaultValue instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf)
                .toList()) : key.defaultValue;
        return "`" + value + "`";
    }

    private static String escape(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
    }
}
