package io.tidemark.config;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Gathers settings in layers, each overriding the one before: a properties file, then environment variables,
 * then command-line flags. A declared key {@code a.b-c} is read from {@code TIDEMARK_A_B_C}. Kafka passthrough
 * settings come from variables under {@code TIDEMARK_KAFKA_} with Kafka's own image convention: {@code _} is a
 * dot, {@code __} an underscore, {@code ___} a dash ({@code TIDEMARK_KAFKA_PRODUCER_LINGER_MS} →
 * {@code kafka.producer.linger.ms}). The environment is passed in, so tests can inject one.
 *
 * <p>Every setting is known or refused: a key in the file or a flag that the definition does not declare, or a
 * {@code TIDEMARK_} variable that names no declared key, fails the load with the nearest known name, so that a
 * misspelt setting is never silently left at its default. Only the Kafka passthrough ({@code kafka.*},
 * {@code TIDEMARK_KAFKA_*}) is not checked: the Kafka clients own those names.
 */
public final class ConfigLoader {

    private static final List<String> PASSTHROUGH = List.of("kafka.");

    /**
     * The {@code TIDEMARK_} variables that are no setting, read by the launch scripts, the logging configuration and
     * the emulator's command: not refused.
     */
    public static final Set<String> OTHER_VARIABLES = Set.of("TIDEMARK_JAVA_OPTS", "TIDEMARK_LOG_LEVEL",
            "TIDEMARK_EMULATOR_ADMIN_ADDRESS", "TIDEMARK_IMAGE");

    private ConfigLoader() {
    }

    /**
     * The settings of the three layers, merged.
     *
     * @throws ConfigException naming every unknown key and variable, each with the nearest known name
     */
    public static Map<String, String> gather(ConfigDef definition, Path file, Map<String, String> environment,
                                             Map<String, String> flags) {
        Set<String> declared = definition.names();
        List<String> unknown = new ArrayList<>();
        Map<String, String> values = new LinkedHashMap<>();
        if (file != null) {
            Map<String, String> fromFile = readFile(file);
            new TreeMap<>(fromFile).keySet().stream().filter(key -> !known(declared, key))
                    .forEach(key -> unknown.add(unknownKey(key, "in " + file, declared)));
            values.putAll(fromFile);
        }
        values.putAll(fromEnvironment(declared, environment, unknown));
        flags.keySet().stream().filter(key -> !known(declared, key))
                .forEach(key -> unknown.add(unknownKey(key, "--set", declared)));
        values.putAll(flags);
        if (!unknown.isEmpty()) {
            throw new ConfigException(String.join("; ", unknown) + " (every setting: tidemark config docs)");
        }
        return values;
    }

    public static <C> C load(ConfigDef definition, Function<Map<String, ?>, C> constructor, Path file,
                             Map<String, String> environment, Map<String, String> flags) {
        return constructor.apply(gather(definition, file, environment, flags));
    }

    /**
     * Refuses keys the definition does not declare (Kafka passthrough aside), for commands that take settings as
     * flags and build their configuration themselves.
     *
     * @throws ConfigException naming every unknown key, each with the nearest known name
     */
    public static void refuseUnknown(ConfigDef definition, Map<String, String> settings) {
        List<String> unknown = settings.keySet().stream().filter(key -> !known(definition.names(), key))
                .map(key -> unknownKey(key, "--set", definition.names())).toList();
        if (!unknown.isEmpty()) {
            throw new ConfigException(String.join("; ", unknown) + " (every setting: tidemark config docs)");
        }
    }

    private static boolean known(Set<String> declared, String key) {
        return declared.contains(key) || PASSTHROUGH.stream().anyMatch(key::startsWith);
    }

    private static String unknownKey(String key, String where, Set<String> declared) {
        return "unknown setting " + key + " (" + where + ")" + nearest(key, declared)
                .map(name -> "; did you mean " + name + "?").orElse("");
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

    private static Map<String, String> fromEnvironment(Set<String> declared, Map<String, String> environment,
                                                       List<String> unknown) {
        Map<String, String> byVariable = new HashMap<>();
        for (String key : declared) {
            byVariable.put(TidemarkConfig.environmentVariable(key), key);
        }
        Map<String, String> values = new HashMap<>();
        new TreeMap<>(environment).forEach((variable, value) -> {
            String key = byVariable.get(variable);
            if (key != null) {
                values.put(key, value);
            } else if (variable.startsWith(TidemarkConfig.ENV_PREFIX + "KAFKA_")) {
                String passthrough = passthroughKey(variable.substring(TidemarkConfig.ENV_PREFIX.length()));
                if (PASSTHROUGH.stream().anyMatch(passthrough::startsWith)) {
                    values.put(passthrough, value);
                }
            } else if (variable.startsWith(TidemarkConfig.ENV_PREFIX) && !OTHER_VARIABLES.contains(variable)) {
                unknown.add("unknown environment variable " + variable + nearest(variable, byVariable.keySet())
                        .map(near -> "; did you mean " + near + " (" + byVariable.get(near) + ")?").orElse(""));
            }
        });
        return values;
    }

    /** The known name closest to {@code name} in edit distance, when it is close enough to be a slip. */
    static Optional<String> nearest(String name, Collection<String> known) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : known) {
            int distance = distance(name.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance || (distance == bestDistance && best != null && candidate.compareTo(best) < 0)) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return best != null && bestDistance <= Math.max(3, name.length() / 4) ? Optional.of(best) : Optional.empty();
    }

    /** Levenshtein distance. */
    private static int distance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }

    /** {@code KAFKA_PRODUCER_LINGER_MS} → {@code kafka.producer.linger.ms}; {@code ___} → "-", {@code __} → "_". */
    static String passthroughKey(String variable) {
        return variable.toLowerCase(Locale.ROOT)
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
