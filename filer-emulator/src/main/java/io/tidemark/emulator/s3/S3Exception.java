package io.tidemark.emulator.s3;

/** An S3 request the emulated gateway refuses, with S3's error code. */
public final class S3Exception extends RuntimeException {

    private final String code;

    public S3Exception(String code, String message) {
        super(message);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
