package io.tidemark.cli.rules;

/** A vector line that cannot be run: bad JSON, a missing field, a value of the wrong type. */
final class VectorFormatException extends RuntimeException {

    VectorFormatException(String message) {
        super(message);
    }
}
