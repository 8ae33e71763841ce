package io.tidemark.populator;

import io.tidemark.messages.BucketConfig;

/**
 * The value of a bucket's node in the ZooKeeper registry: enough for the conductor to decide what to walk and for
 * operators to see at a glance which buckets are invalid.
 *
 * @param invalidCode S3's error code when the lifecycle XML is invalid, else {@code null}
 */
public record RegistryEntry(String ruleSetHash, String versioning, boolean objectLock, String invalidCode) {

    static RegistryEntry of(BucketConfig config) {
        return new RegistryEntry(config.ruleSetHash(), config.versioning(), config.objectLock(), config.invalidCode());
    }
}
