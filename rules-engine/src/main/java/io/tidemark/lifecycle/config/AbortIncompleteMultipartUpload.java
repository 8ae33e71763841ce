package io.tidemark.lifecycle.config;

public record AbortIncompleteMultipartUpload(int daysAfterInitiation) {
}
