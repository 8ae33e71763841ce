package io.tidemark.devtools.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file a second shell loads the running quickstart's settings from: the printed {@code TIDEMARK_*} lines, at a
 * path that does not change from run to run, gone when the run that wrote it stops.
 */
class QuickstartEnvFileTest {

    private static final Map<String, String> ENVIRONMENT = new LinkedHashMap<>();

    static {
        ENVIRONMENT.put("TIDEMARK_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:40115");
        ENVIRONMENT.put("TIDEMARK_ZOOKEEPER_CONNECT", "127.0.0.1:36555");
        ENVIRONMENT.put("TIDEMARK_FILER_ADDRESS", "127.0.0.1:18888");
        ENVIRONMENT.put("TIDEMARK_EMULATOR_ADMIN_ADDRESS", "127.0.0.1:8333");
    }

    @Test
    void shouldWriteTheTidemarkLinesThePrintedOnes(@TempDir Path home) throws Exception {
        QuickstartEnvFile file = new QuickstartEnvFile(home.resolve(".tidemark/quickstart/quickstart.env"));

        file.write(ENVIRONMENT);

        assertThat(Files.readAllLines(file.path())).containsExactly(
                "TIDEMARK_KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:40115", "TIDEMARK_ZOOKEEPER_CONNECT=127.0.0.1:36555",
                "TIDEMARK_FILER_ADDRESS=127.0.0.1:18888", "TIDEMARK_EMULATOR_ADMIN_ADDRESS=127.0.0.1:8333");
        try (var left = Files.list(file.path().getParent())) {
            assertThat(left.toList()).as("nothing but the file").containsExactly(file.path());
        }
    }

    /** What the README tells a second shell to run, run by a shell. */
    @Test
    void shouldBeLoadedByTheCommandItPrints(@TempDir Path home) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh here");
        Path dir = home.resolve("a home with a space");
        QuickstartEnvFile file = new QuickstartEnvFile(dir.resolve("quickstart.env"));
        Map<String, String> environment = new LinkedHashMap<>(ENVIRONMENT);
        environment.put("TIDEMARK_ODD", "it's $HOME");
        file.write(environment);

        Process shell = new ProcessBuilder("/bin/sh", "-c", file.loadCommand() + "; env")
                .redirectErrorStream(true).start();
        assertThat(shell.waitFor(30, TimeUnit.SECONDS)).isTrue();
        List<String> env = new String(shell.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();

        assertThat(shell.exitValue()).as(String.join("\n", env)).isZero();
        assertThat(env).contains("TIDEMARK_KAFKA_BOOTSTRAP_SERVERS=127.0.0.1:40115",
                "TIDEMARK_EMULATOR_ADMIN_ADDRESS=127.0.0.1:8333", "TIDEMARK_ODD=it's $HOME");
    }

    @Test
    void shouldGoWhenItsRunStopsButNotWhenALaterRunWroteItsOwn(@TempDir Path home) throws Exception {
        Path path = home.resolve("quickstart.env");
        QuickstartEnvFile first = new QuickstartEnvFile(path);
        first.write(ENVIRONMENT);
        first.remove();
        assertThat(path).doesNotExist();

        first.write(ENVIRONMENT);
        QuickstartEnvFile second = new QuickstartEnvFile(path);
        second.write(Map.of("TIDEMARK_KAFKA_BOOTSTRAP_SERVERS", "127.0.0.1:40999"));
        first.remove();
        assertThat(Files.readString(path)).as("the later run's").contains("40999");
        second.remove();
        assertThat(path).doesNotExist();
    }

    @Test
    void shouldBeUnderTheHomeWhateverTheRunsDirectory(@TempDir Path home) throws Exception {
        String previous = System.getProperty("user.home");
        System.setProperty("user.home", home.toString());
        try {
            Path expected = home.resolve(".tidemark").resolve("quickstart").resolve("quickstart.env");
            QuickstartDirectory fresh = QuickstartDirectory.fresh();
            QuickstartDirectory kept = QuickstartDirectory.kept(home.resolve("data"));
            assertThat(fresh.envFile()).isEqualTo(expected);
            assertThat(kept.envFile()).isEqualTo(expected);
            assertThat(fresh.root().getParent()).isEqualTo(expected.getParent());
        } finally {
            System.setProperty("user.home", previous);
        }
    }
}
