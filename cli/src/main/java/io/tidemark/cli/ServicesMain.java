package io.tidemark.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/**
 * Entry point of the services jar ({@code tidemark-services.jar}), the one the container image runs. Only this
 * class ends the JVM.
 */
public final class ServicesMain {

    private ServicesMain() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, out, err));
    }

    /** Runs one command line of the services' tree and returns its exit code ({@link CommandRunner}). */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return CommandRunner.run(new CommandLine(new ServicesCommand()), args, out, err);
    }
}
