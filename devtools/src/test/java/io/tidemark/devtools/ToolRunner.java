package io.tidemark.devtools;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the full tidemark command line ({@link Main}) in-process and captures what it prints. */
public final class ToolRunner {

    public record Result(int exitCode, String out, String err) {
    }

    private ToolRunner() {
    }

    public static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString(), err.toString());
    }
}
