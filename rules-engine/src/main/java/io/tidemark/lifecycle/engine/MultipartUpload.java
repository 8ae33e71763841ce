package io.tidemark.lifecycle.engine;

import java.time.Instant;
import java.util.Objects;

/** An incomplete multipart upload: the key it will create and when it was initiated. */
public record MultipartUpload(String key, Instant initiated) {

    public MultipartUpload {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(initiated, "initiated");
    }
}
