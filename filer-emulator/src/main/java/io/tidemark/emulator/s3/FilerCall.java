package io.tidemark.emulator.s3;

import io.tidemark.emulator.filer.FilerException;

/** A filer mutation the gateway issues; a refusal becomes an internal error, as a broken filer would. */
@FunctionalInterface
interface FilerCall {

    Object call() throws FilerException;

    static void run(FilerCall call) {
        try {
            call.call();
        } catch (FilerException e) {
            throw new S3Exception(e.isNotFound() ? "NoSuchKey" : "InternalError", e.getMessage());
        }
    }
}
