package io.tidemark.cli;

/** The exit codes every tidemark command uses. */
public final class ExitCodes {

    public static final int OK = 0;
    /** The command ran and found failures, or its input was invalid. */
    public static final int FAILURE = 1;
    /** The command line itself was wrong. */
    public static final int USAGE = 2;

    private ExitCodes() {
    }
}
