package io.tidemark.devtools.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./tidemark} launcher's class-data archive, run against a stand-in {@code java} that notes how it was
 * called: the quickstart's own JVM never writes the archive at exit (that kept a user who pressed Ctrl-C waiting
 * 7-9 s for the prompt); the archive is made after that JVM has ended, from the classes a run that reached READY
 * loaded, and later runs start from it.
 */
class LauncherScriptTest {

    private static final String LIVE_VIEW = "io/tidemark/devtools/quickstart/LiveView";

    @TempDir
    Path root;
    private Path calls;
    private Path archive;

    @BeforeEach
    void copyTheLauncherBesideAFreshJar() throws IOException {
        Path repository = Path.of("").toAbsolutePath().getParent();
        Files.copy(repository.resolve("tidemark"), root.resolve("tidemark"));
        Path jar = Files.createDirectories(root.resolve("devtools/target")).resolve("tidemark.jar");
        Files.writeString(jar, "a jar");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(3600)));
        archive = jar.resolveSibling("tidemark-quickstart.jsa");
        calls = root.resolve("java-calls.txt");
    }

    @Test
    void shouldNotHaveTheQuickstartsJvmWriteTheArchiveAtExit() throws Exception {
        run(List.of(LIVE_VIEW));

        String quickstart = calls().get(0);
        assertThat(quickstart).contains("quickstart").doesNotContain("ArchiveClassesAtExit")
                .contains("-XX:DumpLoadedClassList=");
    }

    @Test
    void shouldMakeTheArchiveOnceTheQuickstartHasEndedAndStartLaterRunsFromIt() throws Exception {
        run(List.of("java/lang/Object", LIVE_VIEW));

        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(archive));
        String dump = calls().get(1);
        assertThat(dump).contains("-Xshare:dump", "-XX:SharedClassListFile=",
                "-cp " + root.resolve("devtools/target/tidemark.jar"));
        await().atMost(Duration.ofSeconds(10)).until(this::onlyTheArchiveIsLeft);

        run(List.of(LIVE_VIEW));

        assertThat(calls()).hasSize(3);
        assertThat(calls().get(2)).contains("-XX:SharedArchiveFile=" + archive).doesNotContain("DumpLoadedClassList");
    }

    @Test
    void shouldMakeNoArchiveFromARunThatNeverGotReady() throws Exception {
        run(List.of("java/lang/Object"));

        await().atMost(Duration.ofSeconds(30)).until(this::noListIsLeft);
        assertThat(archive).doesNotExist();
        assertThat(calls()).hasSize(1);
    }

    @Test
    void shouldLeaveTheOtherCommandsAlone() throws Exception {
        runCommand("status", List.of(LIVE_VIEW));

        assertThat(calls().get(0)).doesNotContain("-XX:");
    }

    /** Runs {@code ./tidemark quickstart} with a {@code java} that lists {@code loaded} as the classes it loaded. */
    private void run(List<String> loaded) throws Exception {
        runCommand("quickstart", loaded);
    }

    private void runCommand(String command, List<String> loaded) throws Exception {
        Path bin = Files.createDirectories(root.resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, String.join("\n",
                "#!/usr/bin/env bash",
                "echo \"$*\" >> '" + calls + "'",
                "for a in \"$@\"; do",
                "  case $a in",
                "    -XX:DumpLoadedClassList=*) printf '" + String.join("\\n", loaded) + "\\n' > \"${a#*=}\" ;;",
                "    -XX:SharedArchiveFile=*) if [[ \" $* \" == *' -Xshare:dump '* ]]; then echo archive > \"${a#*=}\"; fi ;;",
                "  esac",
                "done",
                ""), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        ProcessBuilder builder = new ProcessBuilder("bash", root.resolve("tidemark").toString(), command)
                .redirectErrorStream(true).redirectOutput(root.resolve("out.txt").toFile());
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        builder.environment().remove("TIDEMARK_JAVA_OPTS");
        Process process = builder.start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("the launcher returned").isTrue();
        assertThat(process.exitValue()).as(Files.readString(root.resolve("out.txt"))).isZero();
    }

    private List<String> calls() throws IOException {
        return Files.readAllLines(calls);
    }

    private boolean noListIsLeft() throws IOException {
        try (var files = Files.list(archive.getParent())) {
            return files.noneMatch(f -> f.getFileName().toString().endsWith(".classes"));
        }
    }

    private boolean onlyTheArchiveIsLeft() throws IOException {
        try (var files = Files.list(archive.getParent())) {
            return files.map(f -> f.getFileName().toString()).sorted().toList()
                    .equals(List.of("tidemark-quickstart.jsa", "tidemark.jar"));
        }
    }
}
