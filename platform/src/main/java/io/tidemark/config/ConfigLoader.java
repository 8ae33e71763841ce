package io.tidemark.config;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Gathers settings in layers, each overriding the one before: a properties file, then environment variables,
 * then command-line flags. A declared key {@code a.b-c} is read from {@code TIDEMARK_A_B_C}. Kafka passthrough
 * settings come from variables under {@code TIDEMARK_KAFKA_} with Kafka's own image convention: {@code _} is a
 * dot, {@code __} an underscore, {@code ___} a dash ({@code TIDEMARK_KAFKA_PRODUCER_LINGER_MS} →
 * {@code kafka.producer.linger.ms}). The environment is passed in, so tests can inject one.
 */
public final class ConfigLoader {

    private static final List<String> PASSTHROUGH = List.of("kafka.");

    private ConfigLoader() {
    }

    public static Map<String, String> gather(ConfigDef definition, Path file, Map<String, String> environment,
                                             Map<String, String> flags) {
        Map<String, String> values = new LinkedHashMap<>();
        if (file != null) {
            values.putAll(readFile(file));
        }
        values.putAll(fromEnvironment(definition.names(), environment));
        values.putAll(flags);
        return values;
    }

    public static <C> C load(ConfigDef definition, Function<Map<String, ?>, C> constructor, Path file,
                             Map<String, String> environment, Map<String, String> flags) {
        return constructor.apply(gather(definition, file, environment, flags));
    }

    static Map<String, String> readFile(Path file) {
        Properties properties = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the configuration file " + file, e);
        }
        Map<String, String> values = new HashMap<>();
        properties.stringPropertyNames().forEach(k -> values.put(k, properties.getProperty(k)));
        return values;
    }

    static Map<String, String> fromEnvironment(Set<String> declared, Map<String, String> environment) {
        Map<String, String> byVariable = new HashMap<>();
        for (String key : declared) {
            byVariable.put(TidemarkConfig.environmentVariable(key), key);
        }
        Map<String, String> values = new HashMap<>();
        environment.forEach((variable, value) -> {
            String key = byVariable.get(variable);
            if (key != null) {
                values.put(key, value);
            } else if (variable.startsWith(TidemarkConfig.ENV_PREFIX + "KAFKA_")) {
                String passthrough = passthroughKey(variable.substring(TidemarkConfig.ENV_PREFIX.length()));
                if (PASSTHROUGH.stream().anyMatch(passthrough::startsWith)) {
                    values.put(passthrough, value);
                }
            }
        });
        return values;
    }

    /** {@code KAFKA_PRODUCER_LINGER_MS} → {@code kafka.producer.linger.ms}; {@code ___} → "-", {@code __} → "_". */
    static String passthroughKey(String variable) {
        return variable.toLowerCase(java.util.Locale.ROOT)
                .replace("___", "\u0001").replace("__", "\u0002").replace('_', '.')
                .replace('\u0001', '-').replace('\u0002', '_');
    }

    /** Parses {@code key=value} flags. */
    public static Map<String, String> flags(List<String> pairs) {
        Map<String, String> flags = new LinkedHashMap<>();
        for (String pair : pairs) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new ConfigException("a setting flag must be key=value, not \"" + pair + "\"");
            }
            flags.put(pair.substring(0, eq), pair.substring(eq + 1));
        }
        return flags;
    }
}
