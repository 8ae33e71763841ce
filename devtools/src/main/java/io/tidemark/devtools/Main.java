package io.tidemark.devtools;

import io.tidemark.cli.CommandRunner;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * Entry point of the full {@code tidemark} jar: the services' commands and the development tools (quickstart,
 * emulator, local cluster, benchmarks, campaign). Only this class ends the JVM.
 */
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
        return CommandRunner.run(TidemarkCommand.commandLine(), args, out, err);
    }
}
