package io.tidemark.devtools.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A quickstart started with no class-data archive for its jar asks the launcher to record one, and returns. */
class ClassArchiveTest {

    @Test
    void shouldAskTheLauncherNamedToRecordTheArchive(@TempDir Path dir) throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "no /bin/sh here");
        Path asked = dir.resolve("asked");
        Path launcher = dir.resolve("tidemark");
        Files.writeString(launcher, "#!/bin/sh\necho \"$@\" > '" + asked + "'\n");
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwx------"));

        assertThat(ClassArchive.recordInBackground(launcher.toString())).isTrue();

        await().atMost(Duration.ofSeconds(30)).until(() -> Files.exists(asked) && Files.size(asked) > 0);
        assertThat(Files.readString(asked).trim()).isEqualTo("--record-quickstart-archive");
    }

    @Test
    void shouldAskNothingWhenTheLauncherFoundAnArchive() {
        assertThat(ClassArchive.recordInBackground(null)).isFalse();
        assertThat(ClassArchive.recordInBackground("")).isFalse();
    }

    @Test
    void shouldGoOnWhenTheLauncherCannotBeStarted(@TempDir Path dir) {
        assertThat(ClassArchive.recordInBackground(dir.resolve("no-such-launcher").toString())).isFalse();
    }
}
