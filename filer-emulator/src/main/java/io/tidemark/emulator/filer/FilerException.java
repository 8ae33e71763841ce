package io.tidemark.emulator.filer;

import io.tidemark.seaweed.pb.FilerProto.FilerError;

/** A filer operation refused the way SeaweedFS refuses it: an error text and, where upstream has one, a code. */
public final class FilerException extends Exception {

    /** The text SeaweedFS uses for a missing entry; clients detect "not found" by it. */
    public static final String NOT_FOUND = "filer: no entry is found in filer store";

    private final FilerError code;

    public FilerException(FilerError code, String message) {
        super(message);
        this.code = code;
    }

    public FilerError code() {
        return code;
    }

    public static FilerException notFound(String path) {
        return new FilerException(FilerError.OK, NOT_FOUND + ": " + path);
    }

    public boolean isNotFound() {
        return getMessage().startsWith(NOT_FOUND);
    }
}
