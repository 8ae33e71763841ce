package io.tidemark.devtools.quickstart;

import io.tidemark.localcluster.Directories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Where a quickstart keeps its data and its log. A directory the user named is kept as it is. Otherwise each run
 * gets a new one under {@code ~/.tidemark/quickstart} — not under the OS temp directory, which cleaners sweep under a
 * long-running process (Kafka Streams warns of it for its state) — and it is removed at exit but for the log, so the
 * log can still be read after a run that went wrong.
 */
final class QuickstartDirectory implements AutoCloseable {

    static final String LOG = "quickstart.log";
    private static final DateTimeFormatter RUN = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    private final Path root;
    private final boolean removeData;

    private QuickstartDirectory(Path root, boolean removeData) {
        this.root = root;
        this.removeData = removeData;
    }

    static QuickstartDirectory kept(Path dir) throws IOException {
        return new QuickstartDirectory(Files.createDirectories(dir), false);
    }

    /** A new directory for this run, under the user's home when it is writable, else under the OS temp directory. */
    static QuickstartDirectory fresh() throws IOException {
        String run = "run-" + LocalDateTime.now().format(RUN) + "-" + ProcessHandle.current().pid();
        Path root;
        try {
            root = Files.createDirectories(Path.of(System.getProperty("user.home"), ".tidemark", "quickstart", run));
        } catch (IOException | UnsupportedOperationException e) {
            root = Files.createTempDirectory("tidemark-quickstart-" + run);
        }
        return new QuickstartDirectory(root, true);
    }

    Path root() {
        return root;
    }

    Path log() {
        return root.resolve(LOG);
    }

    /** Removes the data of a run with no directory named for it; the log stays. */
    @Override
    public void close() {
        if (!removeData) {
            return;
        }
        try (Stream<Path> children = Files.list(root)) {
            children.filter(p -> !p.equals(log())).forEach(Directories::delete);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the quickstart's data in " + root, e);
        }
    }
}
