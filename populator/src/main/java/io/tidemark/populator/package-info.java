/**
 * The populator: tails the filer meta-log into the {@code meta-log} topic exactly once and keeps the registry of
 * lifecycle buckets. {@link io.tidemark.populator.PopulatorService} runs the leader election;
 * {@link io.tidemark.populator.MetaLogTailer} runs one leadership term (fence, read the committed state, cold-start
 * or resume, publish batch by batch through {@link io.tidemark.populator.TransactionalPublisher});
 * {@link io.tidemark.populator.EventClassifier} addresses each event to its object and kind;
 * {@link io.tidemark.populator.BucketConfigTracker} and {@link io.tidemark.populator.BucketRegistry} keep bucket
 * configurations. See docs/populator.md.
 */
package io.tidemark.populator;
