/**
 * The populator: tails the filer meta-log into the {@code meta-log} topic and keeps the registry of lifecycle
 * buckets. So far: {@link io.tidemark.populator.EventClassifier}, which turns one filer event into the record the
 * topic carries.
 */
package io.tidemark.populator;
