package io.tidemark.messages;

/**
 * A bucket's lifecycle-relevant configuration, the value of the compacted {@code bucket-configs} topic.
 *
 * @param ruleSetHash   hex of the replay content hash of the valid rules, or empty
 * @param invalidCode   the S3 error code when the lifecycle XML is invalid, else {@code null}
 */
public record BucketConfig(String bucket, String versioning, boolean objectLock, String lifecycleXml,
                           String ruleSetHash, String invalidCode, String invalidMessage) {
}
