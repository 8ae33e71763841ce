package io.tidemark.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Entry point of the {@code tidemark} command. Only this class ends the JVM. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, out, err));
    }

    /** Runs one command line and returns its exit code: 0 success, 1 failure or invalid input, 2 usage. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return run(TidemarkCommand.commandLine(), args, out, err);
    }

    /** As {@link #run(String[], PrintWriter, PrintWriter)}, on another command tree. */
    static int run(CommandLine commandLine, String[] args, PrintWriter out, PrintWriter err) {
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
