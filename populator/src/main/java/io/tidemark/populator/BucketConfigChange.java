package io.tidemark.populator;

import io.tidemark.messages.BucketConfig;

/**
 * What one bucket event changes: the bucket's new configuration ({@code null}: the bucket no longer has a
 * lifecycle configuration, so its record is tombstoned and its registry node removed) and whether a recovery walk
 * must re-arm its timers.
 */
public record BucketConfigChange(String bucket, BucketConfig config, boolean recovery) {

    public boolean removed() {
        return config == null;
    }
}
