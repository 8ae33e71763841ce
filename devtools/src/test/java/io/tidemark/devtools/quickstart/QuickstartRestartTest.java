package io.tidemark.devtools.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tidemark.devtools.Main;
import io.tidemark.localcluster.ChildJvm;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tidemark quickstart --data-dir} stopped by SIGTERM and started again on the same directory: the stop of a
 * run that keeps its state goes to its end (Kafka shut down cleanly), and the next run takes up the demo bucket, the
 * topics and the timers it left.
 */
class QuickstartRestartTest {

    private static final Pattern LIVE = Pattern.compile("demo: written (\\d+), in bucket (\\d+) .*deletes done (\\d+)");

    @Test
    void shouldStopToTheEndAndStartAgainFromTheStateItKept(@TempDir Path home) throws Exception {
        Path data = home.resolve("data");

        Run first = Run.start(home, data);
        try {
            first.awaitLine("READY");
            // Something deleted: the pipeline has offsets, timers and walks to keep.
            await().atMost(Duration.ofSeconds(120)).until(() -> first.live().anyMatch(m -> Long.parseLong(m.group(3))
                    >= 1));
        } finally {
            first.stop();
        }
        assertThat(first.lines).as("the stop went to its end").anyMatch(l -> l.startsWith("Stopping; the state in "))
                .anyMatch(l -> l.startsWith("Stopped; the state stays in " + data));
        assertThat(data.resolve("kafka").resolve("logs").resolve(".kafka_cleanshutdown")).as("Kafka shut down cleanly")
                .exists();

        Run second = Run.start(home, data);
        try {
            second.awaitLine("READY");
            // The bucket as the first run left it: nothing seeded again, its keep/ objects still there.
            await().atMost(Duration.ofSeconds(60)).until(() -> second.live().findAny().isPresent());
            Matcher line = second.live().findFirst().orElseThrow();
            assertThat(Long.parseLong(line.group(2))).as("objects in the bucket").isGreaterThanOrEqualTo(5);
            assertThat(second.lines).noneMatch(l -> l.contains("Exception") || l.contains("ERROR"));
        } finally {
            second.stop();
        }
        assertThat(second.lines).anyMatch(l -> l.startsWith("Stopped; the state stays in " + data));
    }

    /** A quickstart in a process of its own, its console read line by line. */
    private record Run(Process process, List<String> lines, Thread reader) {

        static Run start(Path home, Path data) throws IOException {
            Process process = new ProcessBuilder(ChildJvm.command(List.of("-Xmx1g", "-Duser.home=" + home),
                    Main.class, "quickstart", "--data-dir", data.toString(), "--refresh-seconds", "1",
                    "--exit-after-seconds", "240")).redirectErrorStream(true).start();
            List<String> lines = new CopyOnWriteArrayList<>();
            Thread reader = new Thread(() -> new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8)).lines().forEach(lines::add));
            reader.setDaemon(true);
            reader.start();
            return new Run(process, lines, reader);
        }

        void awaitLine(String prefix) {
            await().atMost(Duration.ofSeconds(150)).until(() -> lines.stream().anyMatch(l -> l.startsWith(prefix)));
        }

        Stream<Matcher> live() {
            return lines.stream().map(LIVE::matcher).filter(Matcher::find);
        }

        void stop() throws InterruptedException {
            process.toHandle().destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
            reader.join(10_000);
        }
    }
}
