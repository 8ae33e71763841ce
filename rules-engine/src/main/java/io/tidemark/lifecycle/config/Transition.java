package io.tidemark.lifecycle.config;

import java.time.Instant;

/** {@code <Transition>}: exactly one of days and date is set. Parsed and validated, never executed. */
public record Transition(Integer days, Instant date, StorageClass storageClass) {
}
