package io.tidemark.populator;

import io.tidemark.messages.BucketConfig;
import io.tidemark.zookeeper.RegistryEntry;

/**
 * What one bucket event changes: the bucket's new configuration ({@code null}: the bucket no longer has a
 * lifecycle configuration, so its record is tombstoned and its registry node removed), the registry node it should
 * have when the change was read with its rules ({@code null}: derived from the configuration when written), and
 * whether a recovery walk must re-arm its timers.
 */
public record BucketConfigChange(String bucket, BucketConfig config, RegistryEntry entry, boolean recovery) {

    public BucketConfigChange(String bucket, BucketConfig config, boolean recovery) {
        this(bucket, config, null, recovery);
    }

    public boolean removed() {
        return config == null;
    }
}
