package io.tidemark.devtools.quickstart;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running quickstart's {@code TIDEMARK_*} settings in a file at a path that does not change from run to run, so
 * that a second shell can load them ({@code set -a; . ~/.tidemark/quickstart/quickstart.env; set +a}) and point
 * {@code tidemark status} or {@code tidemark emulator s3} at it. The last quickstart started writes it; it goes at
 * exit unless a later quickstart has written its own there meanwhile.
 */
final class QuickstartEnvFile {

    static final String NAME = "quickstart.env";
    private static final Logger log = LoggerFactory.getLogger(QuickstartEnvFile.class);
    /** Values a POSIX shell reads as they are; anything else is single-quoted. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_.,:/@%+=-]*");

    private final Path file;
    private volatile String written;

    QuickstartEnvFile(Path file) {
        this.file = file;
    }

    Path path() {
        return file;
    }

    /** The line that loads the settings in a shell. */
    String loadCommand() {
        return "set -a; . " + shellWord(file.toString()) + "; set +a";
    }

    /** Writes {@code NAME=value} lines, one per setting, replacing the file at once (a reader never sees half). */
    void write(Map<String, String> environment) throws IOException {
        StringBuilder text = new StringBuilder();
        environment.forEach((name, value) -> text.append(name).append('=').append(shellWord(value)).append('\n'));
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path temporary = file.resolveSibling(NAME + "." + ProcessHandle.current().pid() + ".tmp");
        Files.writeString(temporary, text, StandardCharsets.UTF_8);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        written = text.toString();
    }

    /** Removes the file if it still holds what this run wrote; a quickstart started since keeps its own. */
    void remove() {
        String mine = written;
        if (mine == null) {
            return;
        }
        try {
            if (Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).equals(mine)) {
                Files.delete(file);
            }
        } catch (IOException e) {
            log.warn("cannot remove {}: {}", file, e.toString());
        }
    }

    static String shellWord(String value) {
        return PLAIN.matcher(value).matches() ? value : "'" + value.replace("'", "'\\''") + "'";
    }
}
