package io.tidemark.cli.control;

import static org.assertj.core.api.Assertions.assertThat;

import io.tidemark.cli.ExitCodes;
import io.tidemark.cli.ServicesCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The control commands' failures: one line and exit 1, nothing changed, never a stack trace or a wait for ever. */
class ControlCommandsTest {

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(String... args) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--set", "zookeeper.connect=127.0.0.1:" + closedPort,
                "--set", "zookeeper.connection.timeout.ms=500"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = new CommandLine(new ServicesCommand()).setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute(all.toArray(String[]::new));
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void shouldSayZooKeeperIsOutOfReachAndChangeNothing() throws Exception {
        for (String[] command : List.of(new String[] {"pause"}, new String[] {"resume", "--bucket", "photos"},
                new String[] {"bucket", "dry-run", "photos", "on"})) {
            Run run = run(command);
            assertThat(run.exitCode()).as(String.join(" ", command)).isEqualTo(ExitCodes.FAILURE);
            assertThat(run.err()).contains("not reachable within 500 ms; nothing was changed")
                    .doesNotContain("Exception");
            assertThat(run.out()).isEmpty();
        }
    }

    @Test
    void shouldRefuseADryRunSwitchOtherThanOnOrOff() throws Exception {
        Run run = run("bucket", "dry-run", "photos", "maybe");
        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("maybe");
    }
}
