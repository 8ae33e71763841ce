package io.tidemark.cli.deploy;

import io.tidemark.cli.ServicesCommand;
import io.tidemark.config.TidemarkConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine;

/** What the deploy tests share: the repository's files, YAML, the image's command tree, the settings' names. */
public final class DeployFiles {

    private DeployFiles() {
    }

    /** The repository's root directory, found upwards from where the tests run. */
    public static Path root() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.exists(p.resolve("mvnw"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the repository root");
    }

    static String read(String relative) {
        try {
            return Files.readString(root().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Yaml yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(200);
        return new Yaml(options);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> yamlMap(String text) {
        return (Map<String, Object>) yaml().load(text);
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> yamlDocuments(String text) {
        List<Map<String, Object>> documents = new ArrayList<>();
        for (Object document : yaml().loadAll(text)) {
            if (document != null) {
                documents.add((Map<String, Object>) document);
            }
        }
        return documents;
    }

    @SuppressWarnings("unchecked")
    static <T> T at(Object node, String... path) {
        Object current = node;
        for (String step : path) {
            current = current == null ? null : ((Map<String, Object>) current).get(step);
        }
        return (T) current;
    }

    /** Parses a command line against the image's command tree; a wrong command or option throws. */
    static CommandLine.ParseResult parseImageCommand(List<String> args) {
        return new CommandLine(new ServicesCommand()).parseArgs(args.toArray(String[]::new));
    }

    /** Every environment variable the settings answer to. */
    static Set<String> knownVariables() {
        return TidemarkConfig.definition().names().stream().map(TidemarkConfig::environmentVariable)
                .collect(Collectors.toSet());
    }

    /** Whether a TIDEMARK_* variable is a setting or a Kafka client passthrough. */
    static boolean knownVariable(String name) {
        return knownVariables().contains(name) || name.startsWith(TidemarkConfig.ENV_PREFIX + "KAFKA_");
    }

    /** A tool on the PATH, if installed. */
    static Optional<Path> tool(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    record Run(int exitCode, String output) {
    }

    static Run run(Path directory, String... command) {
        return run(directory, Set.of(), command);
    }

    /** As {@link #run(Path, String...)}, with {@code unset} removed from the environment the command inherits. */
    static Run run(Path directory, Set<String> unset, String... command) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
            builder.environment().keySet().removeAll(unset);
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish");
            }
            return new Run(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
