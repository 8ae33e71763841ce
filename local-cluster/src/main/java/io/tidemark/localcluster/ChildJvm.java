package io.tidemark.localcluster;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The command line of a Java process started from this one, on this JVM's class path: a broker, an ensemble or a
 * service that a test or a campaign kills and restarts. Options for every such child come from the system property
 * {@value #OPTIONS_PROPERTY} (space-separated), e.g. how the build's tests ask for C1-only compilation.
 */
public final class ChildJvm {

    public static final String OPTIONS_PROPERTY = "tidemark.child.java.options";

    private ChildJvm() {
    }

    /**
     * @param options JVM options of this child (its heap, say), after those of {@value #OPTIONS_PROPERTY}
     */
    public static List<String> command(List<String> options, Class<?> main, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        String common = System.getProperty(OPTIONS_PROPERTY, "").trim();
        if (!common.isEmpty()) {
            command.addAll(Arrays.asList(common.split("\\s+")));
        }
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(List.of(args));
        return command;
    }
}
