package io.tidemark.lifecycle.config;

/**
 * {@code <NoncurrentVersionExpiration>}.
 *
 * @param newerNoncurrentVersions how many newer noncurrent versions to keep regardless of age, or {@code null}
 */
public record NoncurrentVersionExpiration(int noncurrentDays, Integer newerNoncurrentVersions) {
}
