package io.tidemark.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the services' command line ({@link ServicesMain}) in-process and captures what it prints. */
public final class CliRunner {

    public record Result(int exitCode, String out, String err) {
    }

    private CliRunner() {
    }

    public static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ServicesMain.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }
}
