package io.tidemark.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Runs one command line of a command tree, the same way for the services jar and the full {@code tidemark} jar:
 * exit code 0 for success, 1 for a failure or invalid input, 2 for a usage error ({@link ExitCodes}).
 */
public final class CommandRunner {

    private CommandRunner() {
    }

    public static int run(CommandLine commandLine, String[] args, PrintWriter out, PrintWriter err) {
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler((ex, cmd, parseResult) -> {
            cmd.getErr().println("error: " + ex.getMessage());
            return ExitCodes.FAILURE;
        });
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }
}
