package io.tidemark.lifecycle.config;

/** {@code <NoncurrentVersionTransition>}. Parsed and validated, never executed. */
public record NoncurrentVersionTransition(int noncurrentDays, StorageClass storageClass,
                                          Integer newerNoncurrentVersions) {
}
