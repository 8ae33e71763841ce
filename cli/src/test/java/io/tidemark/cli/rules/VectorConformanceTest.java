package io.tidemark.cli.rules;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.lifecycle.engine.RuleReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every S3 lifecycle conformance vector, run through the same code as {@code tidemark rules eval}. The vectors
 * ship with the tests; when the shared vector directory sits beside the checkout, its files run too, so new
 * vectors are picked up without copying them.
 */
class VectorConformanceTest {

    private static final VectorRunner RUNNER = new VectorRunner(RuleReader.aws());

    static Stream<Arguments> vectors() throws IOException {
        List<Arguments> vectors = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        try (InputStream bundled = VectorConformanceTest.class.getResourceAsStream("/vectors/lifecycle-public.jsonl")) {
            addLines(vectors, seen, "bundled", new String(bundled.readAllBytes(), StandardCharsets.UTF_8));
        }
        Path shared = sharedVectors();
        if (shared != null) {
            try (Stream<Path> files = Files.list(shared)) {
                for (Path file : files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
                    addLines(vectors, seen, "shared/" + file.getFileName(), Files.readString(file));
                }
            }
        }
        return vectors.stream();
    }

    /** Adds each vector once: a shared file holding the bundled vectors again adds only what is new in it. */
    private static void addLines(List<Arguments> into, java.util.Set<String> seen, String source, String content) {
        String[] lines = content.split("\n");
        for (int i = 0; i < lines.length; i++) {
            if (lines[i].isBlank() || !seen.add(lines[i].strip())) {
                continue;
            }
            String id = lines[i].replaceFirst("^\\{\\s*\"id\"\\s*:\\s*\"([^\"]*)\".*$", "$1");
            into.add(Arguments.of(Named.of(source + " " + id, lines[i]), i + 1));
        }
    }

    private static Path sharedVectors() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve("shared").resolve("vectors");
            if (Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        return null;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void shouldPassVector(String vector, int line) {
        VectorRunner.Outcome outcome = RUNNER.runOne(vector, line);
        assertThat(outcome.passed())
                .as("vector %s%n  got: %s", vector.length() > 400 ? vector.substring(0, 400) + "…" : vector,
                        outcome.resultLine())
                .isTrue();
    }
}
