package io.tidemark.lifecycle.config;

/**
 * {@code <NoncurrentVersionExpiration>}. The parser requires at least one of its two elements; whether a keep
 * count alone is acceptable depends on the {@link ValidationMode}.
 *
 * @param noncurrentDays          days a version stays noncurrent before it expires, or {@code null}
 * @param newerNoncurrentVersions how many newer noncurrent versions to keep regardless of age, or {@code null}
 */
public record NoncurrentVersionExpiration(Integer noncurrentDays, Integer newerNoncurrentVersions) {
}
