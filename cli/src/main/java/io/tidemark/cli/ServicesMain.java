package io.tidemark.cli;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine;

/** Entry point of the services jar ({@code tidemark-services.jar}), the one the container image runs. */
public final class ServicesMain {

    private ServicesMain() {
    }

    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
        PrintWriter err = new PrintWriter(System.err, true, StandardCharsets.UTF_8);
        System.exit(run(args, out, err));
    }

    /** Runs one command line of the services' tree; the exit codes are {@link Main}'s. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        return Main.run(new CommandLine(new ServicesCommand()), args, out, err);
    }
}
